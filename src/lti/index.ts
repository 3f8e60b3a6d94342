// The LTI 1.3 protocol core: pure functions over a platform's record, its keys and a nonce store,
// with no storage and no routes of its own (decision 0029).
export { CLAIM, LTI_VERSION, MESSAGE_TYPES, type LtiMessageType } from './claims';
export { LTI_ERROR_CODES, LtiError, type LtiErrorCode } from './errors';
export {
  DEFAULT_SKEW_SECONDS,
  LTI_ALGORITHMS,
  verifyLaunch,
  type LtiAgsEndpoint,
  type LtiContext,
  type LtiDeepLinkingLaunch,
  type LtiDeepLinkingSettings,
  type LtiLaunch,
  type LtiNrpsEndpoint,
  type LtiResourceLink,
  type LtiResourceLinkLaunch,
  type LtiUser,
  type NonceStore,
  type VerifyLaunchOptions,
} from './launch';
export {
  authenticationRedirect,
  readLoginRequest,
  type AuthenticationRequestOptions,
  type LtiLoginRequest,
} from './login';
export type { LtiPlatform } from './platform';
export {
  forgetPlatformKeys,
  platformKeys,
  PLATFORM_KEYS_DEFAULTS,
  type PlatformKeysOptions,
} from './platform-keys';
export { reduceRoles, type LtiRoles } from './roles';

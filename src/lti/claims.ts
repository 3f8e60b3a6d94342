// The claim names of LTI 1.3 core, Assignment and Grade Services, Names and Role Provisioning
// Services and Deep Linking, in one place for the verifier and the tests' platform emulator.
const LTI = 'https://purl.imsglobal.org/spec/lti/claim/';

export const CLAIM = {
  messageType: `${LTI}message_type`,
  version: `${LTI}version`,
  deploymentId: `${LTI}deployment_id`,
  targetLinkUri: `${LTI}target_link_uri`,
  resourceLink: `${LTI}resource_link`,
  roles: `${LTI}roles`,
  context: `${LTI}context`,
  custom: `${LTI}custom`,
  ags: 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint',
  nrps: 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice',
  deepLinkingSettings: 'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings',
} as const;

export const LTI_VERSION = '1.3.0';

export const MESSAGE_TYPES = ['LtiResourceLinkRequest', 'LtiDeepLinkingRequest'] as const;
export type LtiMessageType = (typeof MESSAGE_TYPES)[number];

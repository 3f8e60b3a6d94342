// A platform (an LMS: Moodle, Canvas, ...) as the LTI core needs it: who signs its launches, the
// client id it gave this tool, and where its endpoints are. Where the records live is not this
// module's business; whoever stores them hands one over per launch.
export interface LtiPlatform {
  /** Our own id for the registration, used to key its nonces apart from another platform's. */
  id: string;
  /** The `iss` of its tokens, compared exactly. */
  issuer: string;
  /** The client id the platform gave this tool: the `aud` of its launches. */
  clientId: string;
  /** The deployments of this tool on the platform that may launch it. */
  deploymentIds: readonly string[];
  /** The OIDC authorization endpoint the login redirects to. */
  authLoginUrl: string;
  /** The OAuth 2 token endpoint (client credentials, for AGS and NRPS). */
  authTokenUrl: string;
  /** The platform's public keys (JWKS). */
  jwksUrl: string;
}

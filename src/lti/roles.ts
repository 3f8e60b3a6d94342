// LTI role URIs (LTI 1.3 core §A.2) reduced to the three things the quiz service asks: may this
// person manage the quiz, take it, or administer the platform's side of it.
export interface LtiRoles {
  instructor: boolean;
  learner: boolean;
  administrator: boolean;
}

type Role = keyof LtiRoles;

const LIS = 'http://purl.imsglobal.org/vocab/lis/v2/';

// The principal roles named here; a sub-role (membership/Instructor#TeachingAssistant) counts as
// its principal role, as the spec says a platform sending one should send the principal too.
const CONTEXT_ROLES: Record<string, Role> = {
  Instructor: 'instructor',
  Learner: 'learner',
  Administrator: 'administrator',
};

const INSTITUTION_ROLES: Record<string, Role> = {
  Instructor: 'instructor',
  Faculty: 'instructor',
  Learner: 'learner',
  Student: 'learner',
  Administrator: 'administrator',
};

const SYSTEM_ROLES: Record<string, Role> = {
  Administrator: 'administrator',
  SysAdmin: 'administrator',
};

// The LTI 1.1 URNs, which some platforms still put beside the v2 URIs.
const LEGACY_ROLES: Record<string, Role> = {
  'urn:lti:role:ims/lis/Instructor': 'instructor',
  'urn:lti:role:ims/lis/Learner': 'learner',
  'urn:lti:role:ims/lis/Administrator': 'administrator',
  'urn:lti:instrole:ims/lis/Instructor': 'instructor',
  'urn:lti:instrole:ims/lis/Faculty': 'instructor',
  'urn:lti:instrole:ims/lis/Student': 'learner',
  'urn:lti:instrole:ims/lis/Learner': 'learner',
  'urn:lti:instrole:ims/lis/Administrator': 'administrator',
  'urn:lti:sysrole:ims/lis/Administrator': 'administrator',
  'urn:lti:sysrole:ims/lis/SysAdmin': 'administrator',
};

function own(table: Record<string, Role>, name: string | undefined): Role | undefined {
  return name !== undefined && Object.hasOwn(table, name) ? table[name] : undefined;
}

function roleOf(uri: string): Role | undefined {
  if (uri.startsWith(`${LIS}membership#`)) return own(CONTEXT_ROLES, uri.slice(`${LIS}membership#`.length));
  if (uri.startsWith(`${LIS}membership/`)) {
    // membership/<Principal>#<SubRole>
    return own(CONTEXT_ROLES, uri.slice(`${LIS}membership/`.length).split('#')[0]);
  }
  if (uri.startsWith(`${LIS}institution/person#`)) {
    return own(INSTITUTION_ROLES, uri.slice(`${LIS}institution/person#`.length));
  }
  if (uri.startsWith(`${LIS}system/person#`))
    return own(SYSTEM_ROLES, uri.slice(`${LIS}system/person#`.length));
  if (uri.startsWith('urn:lti:')) return own(LEGACY_ROLES, uri);
  // The deprecated simple names of context roles (core §A.2.3.1), which Moodle and Canvas may send.
  return own(CONTEXT_ROLES, uri);
}

export function reduceRoles(uris: readonly string[]): LtiRoles {
  const roles: LtiRoles = { instructor: false, learner: false, administrator: false };
  for (const uri of uris) {
    const role = roleOf(uri.trim());
    if (role !== undefined) roles[role] = true;
  }
  return roles;
}

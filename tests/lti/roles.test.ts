// The roles a launch carries, reduced to instructor, learner and administrator: the v2 URIs of
// context, institution and system roles, sub-roles, the simple names and the LTI 1.1 URNs.
import { reduceRoles } from '../../src/lti/roles';

const LIS = 'http://purl.imsglobal.org/vocab/lis/v2/';

describe('reduceRoles', () => {
  test.each([
    ['a context instructor (Moodle, Canvas)', [`${LIS}membership#Instructor`], 'instructor'],
    ['a context learner', [`${LIS}membership#Learner`], 'learner'],
    ['a context administrator', [`${LIS}membership#Administrator`], 'administrator'],
    [
      'a teaching assistant, a sub-role of instructor',
      [`${LIS}membership/Instructor#TeachingAssistant`],
      'instructor',
    ],
    ['an institution faculty member (Canvas)', [`${LIS}institution/person#Faculty`], 'instructor'],
    ['an institution instructor', [`${LIS}institution/person#Instructor`], 'instructor'],
    ['an institution student', [`${LIS}institution/person#Student`], 'learner'],
    [
      'an institution administrator (Moodle site admin)',
      [`${LIS}institution/person#Administrator`],
      'administrator',
    ],
    ['a system administrator (Moodle site admin)', [`${LIS}system/person#Administrator`], 'administrator'],
    ['the simple name Instructor', ['Instructor'], 'instructor'],
    ['the simple name Learner', ['Learner'], 'learner'],
    ['an LTI 1.1 URN', ['urn:lti:role:ims/lis/Instructor'], 'instructor'],
    ['an LTI 1.1 institution URN', ['urn:lti:instrole:ims/lis/Student'], 'learner'],
  ])('%s', (_name, uris, role) => {
    const roles = reduceRoles(uris);
    expect(roles[role as keyof typeof roles]).toBe(true);
    expect(Object.values(roles).filter(Boolean)).toHaveLength(1);
  });

  test('roles it does not know, and look-alikes, grant nothing', () => {
    expect(
      reduceRoles([
        `${LIS}system/person#User`,
        `${LIS}membership#Mentor`,
        `${LIS}membership#ContentDeveloper`,
        `${LIS}institution/person#Guest`,
        'https://evil.example/membership#Instructor',
        'instructor',
        'constructor',
        '__proto__',
        '',
      ]),
    ).toEqual({ instructor: false, learner: false, administrator: false });
  });

  test('several roles add up', () => {
    expect(
      reduceRoles([`${LIS}membership#Instructor`, `${LIS}system/person#Administrator`, 'Learner']),
    ).toEqual({
      instructor: true,
      learner: true,
      administrator: true,
    });
  });
});

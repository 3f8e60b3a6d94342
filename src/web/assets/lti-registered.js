/* global window */
// Tells the LTI platform that opened the registration page that it is done, so it closes the
// page (LTI Dynamic Registration: the tool posts this to its opener or parent window).
(window.opener || window.parent).postMessage({ subject: 'org.imsglobal.lti.close' }, '*');

/**
 * The respondent pages' own words in English, as ICU messages (plural and select included).
 * Every other language file has exactly these keys (its type says so, and
 * tests/respondent/messages.test.ts checks the arguments too). The quiz owner's text is never here.
 */
export const en = {
  // The quiz form
  'quiz.questionCount': '{count, plural, one {# question} other {# questions}}.',
  'quiz.answerEvery': 'Please answer every question.',
  'quiz.answerAny': 'Answer as many questions as you can.',
  'quiz.errorTitle': 'Error: {title}',
  'quiz.problemHeading': 'There is a problem',
  'quiz.changedHeading': 'This quiz has changed',
  'quiz.changedText':
    'The quiz was edited while you were answering it, so your answers were not sent. Check the questions below and submit again.',
  'quiz.aboutYou': 'About you',
  'quiz.sharedWithOwner':
    '{asked, select, name {Your name} email {Your email address} other {Your name and email address}} will be shared with the person who made this quiz.',
  'quiz.yourName': 'Your name',
  'quiz.yourEmail': 'Your email address',
  'quiz.submittingAs': 'Submitting as {email}',
  'quiz.errorPrefix': 'Error:',
  'quiz.questionNumber': 'Question {number} of {total}',
  'quiz.yes': 'Yes',
  'quiz.no': 'No',
  'quiz.submit': 'Submit answers',
  'quiz.saveAnswers': 'Save answers',
  'quiz.saved': 'Your answers are saved on this attempt.',
  'quiz.keptInBrowser': 'Your answers are kept in this browser until you submit them.',
  'quiz.saveRetrying': 'Not saved yet: trying again. Your answers stay on this page.',
  'quiz.numberHint': 'A number, such as 42 or 3.5 (a decimal comma works too).',
  'quiz.scaleHint': 'Choose a number from {min} to {max}.',
  'quiz.gridHintOne': 'Choose one answer in each row.',
  'quiz.gridHintAny': 'Tick any answers in each row.',
  'quiz.textHint': 'Type your answer.',
  'quiz.essayHint': 'Write your answer. The person who made this quiz grades it.',
  'quiz.essayWords':
    '{min, select, none {} other {At least {min} words.}} {max, select, none {} other {At most {max} words.}}',
  'quiz.tickHint': 'Tick every answer that applies (or none).',
  'quiz.orderHint': 'Give each item its position: 1 for the one that comes first.',
  'quiz.orderPosition': 'Position',
  'quiz.blanksHint': 'Fill in each numbered blank: type your answer, or choose one from its list.',
  'quiz.blankLabel': 'Blank {number}',
  'quiz.blankChoose': 'Choose',
  'quiz.matchHint': 'Choose the right match for each one.',
  'quiz.matchNone': 'Choose…',
  'quiz.closedTitle': 'Closed: {title}',
  'quiz.closedHeading': 'This quiz is closed',
  'quiz.closedText':
    'It is not accepting responses at the moment. If you think it should be, contact the person who shared it with you.',
  'quiz.previewBanner':
    'Preview: this is the page as respondents will see it. Nothing you enter here is stored.',
  'quiz.previewNoSubmit': 'Submitting is off in a preview.',

  // Errors beside the fields
  'error.nameMissing': 'Enter your name.',
  'error.emailMissing': 'Enter your email address.',
  'error.emailInvalid': 'Enter an email address such as name@example.com.',
  'error.tooLong': 'Use at most {max} characters.',
  'error.emailNotStarted': 'Use the email address you started with ({email}).',
  'error.answerQuestion': 'Answer this question.',
  'error.chooseListed': 'Choose one of the answers listed.',
  'error.tickListed': 'Tick only the answers listed.',
  'error.orderEach': 'Give each item a different position.',
  'error.blanksListed': 'Choose each blank’s answer from its list.',
  'error.typeAnswer': 'Type an answer, or leave the question out.',
  'error.tooFewWords': 'Write at least {min} words (you wrote {got}).',
  'error.tooManyWords': 'Write at most {max} words.',
  'error.numberInvalid': 'Enter a number, such as 42 or 3.5.',
  'error.answerOne': 'Answer at least one question.',
  'error.notDrawn': 'The answers include a question this attempt did not show. Submit the form as shown.',
  'error.summaryQuestion': 'Question {number}: {message}',

  // The intro of a quiz taken in one attempt
  'intro.questions': 'This quiz has {count, plural, one {# question} other {# questions}}.',
  'intro.timeAllowed': 'Time allowed: {minutes, plural, one {# minute} other {# minutes}}.',
  'intro.timeStarts':
    'The time starts when you press Start. When it runs out, your answers are sent as they are.',
  'intro.attemptsAllowed':
    '{max, plural, one {Each email address may submit this quiz once.} other {Each email address may submit this quiz # times.}}',
  'intro.start': 'Start',

  // The timer
  'timer.timeLeft': 'Time left',
  'timer.warning':
    'Less than {minutes, plural, one {# minute} other {# minutes}} left. Your answers are sent when the time runs out.',
  'timer.sending': 'Time is up: sending your answers.',

  // The window, and refusals
  'window.notYetTitle': 'Not open yet: {title}',
  'window.notYetHeading': 'This quiz is not open yet',
  'window.opensAt': 'It opens on {when}.',
  'window.closedAt': 'It closed on {when} and takes no more responses.',
  'refusal.expired': 'The time limit ended on {when}, so these answers were not recorded.',
  'refusal.alreadySubmitted': 'These answers were already submitted once. To answer again, start again.',
  'refusal.limitReached': '{email} has already used every attempt at this quiz.',
  'refusal.tokenInvalid': 'This attempt is not valid any more. Start the quiz again.',
  'refusal.tokenRequired': 'This quiz starts with the Start button. Your answers were not sent.',

  // The result page
  'result.yourResult': 'Your result',
  'result.thankYou': 'Thank you',
  'result.recordedThanks': 'Thank you for taking this quiz. Your answers have been recorded.',
  'result.recorded': 'Your answers have been recorded.',
  'result.pageTitle': '{heading}: {title}',
  'result.yourScore': 'Your score',
  'result.outOf': 'out of {max}',
  'result.outOfSoFar': 'out of {max} so far',
  'result.percentSoFar': '{percent}% so far',
  'result.passed': 'Passed',
  'result.notPassed': 'Not passed',
  'result.yourAnswers': 'Your answers',
  'result.yourAnswer': 'Your answer:',
  'result.notAnswered': 'not answered',
  'result.notAnsweredTimeUp': 'not answered: the time ran out',
  'result.timeUp': 'The time ran out, so your answers were sent as they were. Questions left blank score 0.',
  'result.outOfTime': 'Left blank when the time ran out:',
  'result.autoSubmitted':
    'Your answers were submitted automatically when the time ran out, from the answers saved on {when}.',
  'result.noneTicked': 'none ticked',
  'result.noRightAnswer': 'This question has no right answer: it collects your thoughts.',
  'result.points': '{points} of {max, plural, one {# point} other {# points}}',
  'result.rightAnswers': '{count, plural, one {Right answer} other {Right answers}}:',
  'result.right': 'Right',
  'result.wrong': 'Wrong',
  'result.partlyRight': 'Partly right',
  'result.pointsLabel': 'Points:',
  'result.questionChanged': 'This question has changed since you answered it.',
  'result.pendingGrading': 'Some of your answers are graded by hand: your final score comes after grading.',
  'result.awaitingGrade': 'Waiting to be graded.',
  'result.feedback': 'Comment:',
  'result.rubric': 'Rubric:',
  'result.gradedAnswers': 'Your graded answers',
  'result.keptHeading': 'Come back to your result',
  'result.keptText':
    'Keep this link: it opens your result again, with your final grade once it is given. Anyone who has the link can see your result, so share it only with people you trust.',
  'result.keptLinkLabel': 'Your result link',
  'result.copyLink': 'Copy link',
  'result.linkCopied': 'The link is on your clipboard.',
  'result.copied': 'Copied',
  'result.keptQrAlt': 'QR code of your result link',
  'result.attemptSubmitted': 'This attempt has been submitted. Your answers are no longer shown here.',
  'quiz.returningText': 'You have submitted this quiz in this browser.',
  'quiz.seeYourResult': 'See your result',
  'quiz.takeAgain': 'Take it again',
  'quiz.startFresh': 'Not you? Start fresh',
  'quiz.forgetRefused': 'That button works only from the quiz page itself.',

  // Dead ends
  'page.notFoundHeading': 'Quiz not found',
  'page.notFoundText':
    'There is no quiz at this address. Check the link you were given: the quiz may not be published yet, or it may have been removed.',
  'page.tooManyHeading': 'Too many submissions',
  'page.tooManyText':
    'This quiz has had too many submissions from your network in the last minute. Wait {seconds, plural, one {# second} other {# seconds}}, then go back and submit again.',
  'page.unreadableHeading': 'Answers not readable',
  'page.unreadableText': 'Send the quiz form as application/x-www-form-urlencoded.',
  'page.notAcceptedHeading': 'Answers not accepted',
  'page.notAcceptedText': 'The field {field} {problem}. Go back, correct it and submit again.',
  'page.tooLargeHeading': 'Answers too large',
  'page.tooLargeText':
    'The form sent more data than a quiz takes. Go back, check your answers and try again.',
  'page.badRequestHeading': 'Request not readable',
  'page.badRequestText': '{reason} Check the link, or go back and submit the form again.',
  'page.errorHeading': 'Something went wrong',
  'page.errorText':
    'The page could not be shown because of a problem on our side. Please try again in a moment.',
  'page.reference': 'Reference: {id}',
} as const;

export type MessageKey = keyof typeof en;
/** What every other language provides: a message for every key. */
export type Messages = Record<MessageKey, string>;

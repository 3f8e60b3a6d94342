import { NUMBER_MAGNITUDE_MAX, TEXT_ANSWER_MAX } from './answer-text';

/**
 * The bounds of what callers send to create or change a quiz (the README's Tools section), apart
 * from the schemas so that the question types' modules can use them too.
 */
export const LIMITS = {
  titleMax: 200,
  /** A picture's alt text. */
  imageAltMax: 500,
  /** Base64 `data` of all pictures of one call, decoded. */
  imageDataPerCallBytes: 512 * 1024,
  questionTextMax: 2000,
  questionsMax: 100,
  optionsMin: 2,
  optionsMax: 20,
  optionLabelMax: 200,
  explanationMax: 2000,
  descriptionMax: 5000,
  pointsMin: -1000,
  pointsMax: 1000,
  acceptedAnswersMax: 20,
  orderingItemsMin: 3,
  orderingItemsMax: 20,
  blanksMax: 20,
  blankOptionsMin: 2,
  blankOptionsMax: 10,
  matchingPairsMin: 2,
  matchingPairsMax: 20,
  extraMatchesMax: 10,
  acceptedAnswerMax: TEXT_ANSWER_MAX,
  numberMagnitudeMax: NUMBER_MAGNITUDE_MAX,
  scaleMinLowest: 0,
  scaleMinHighest: 1,
  scaleMaxLowest: 2,
  scaleMaxHighest: 10,
  scaleLabelMax: 100,
  essayTextMax: 10_000,
  rubricCriteriaMax: 10,
  rubricLevelsMin: 2,
  rubricLevelsMax: 6,
  rubricTextMax: 200,
  essayWordsMax: 2000,
} as const;

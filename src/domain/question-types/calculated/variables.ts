import { RESERVED_NAMES, evaluate, parseFormula, roundTo, type Formula } from './formula';

/**
 * One variable: drawn uniformly between `min` and `max`, bounds included, rounded to `decimals`,
 * or with `step` one of min, min + step, min + 2 × step... up to max (one of the two, never both).
 * `unit` is shown after its value.
 */
export interface CalculatedVariable {
  name: string;
  min: number;
  max: number;
  decimals?: number | undefined;
  step?: number | undefined;
  unit?: string | undefined;
}

/** The values one attempt drew, by variable name. */
export type DrawnValues = Readonly<Record<string, number>>;

export const VARIABLE_LIMITS = {
  count: 10,
  nameLength: 20,
  decimals: 6,
  magnitude: 1e9,
  unitLength: 20,
} as const;

/** The decimals a step is written with (0.25: 2), so that its multiples show as written. */
function stepDecimals(step: number): number {
  const written = String(step);
  if (written.includes('e-')) return Number(written.split('e-')[1]);
  return written.includes('.') ? written.split('.')[1]!.length : 0;
}

/** The decimals a variable's values are shown and rounded with: its own, or its step's. */
export function decimalsOf(variable: Pick<CalculatedVariable, 'decimals' | 'step'>): number {
  return variable.step !== undefined ? stepDecimals(variable.step) : (variable.decimals ?? 0);
}

/** A variable as stored and returned: decimals or step, and its unit, only those given. */
export function variableOf(variable: CalculatedVariable): CalculatedVariable {
  return {
    name: variable.name,
    min: variable.min,
    max: variable.max,
    ...(variable.step !== undefined ? { step: variable.step } : { decimals: variable.decimals ?? 0 }),
    ...(variable.unit ? { unit: variable.unit } : {}),
  };
}

/** A variable's name: a letter, then letters, digits or underscores. */
export const VARIABLE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** `{name}` in a question's text: where a drawn value is shown. */
const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9_]*)\}/g;

/** The names a text shows, in order of first appearance. */
export function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1]!))];
}

/** A value as the question shows it: with its variable's decimals, so 2.50 stays 2.50. */
export function shownValue(
  variable: Pick<CalculatedVariable, 'decimals' | 'step'> | undefined,
  value: number,
): string {
  return variable ? value.toFixed(decimalsOf(variable)) : String(value);
}

/**
 * The text with each `{name}` replaced by its value, then its unit if it has one; names without
 * a value are left as written.
 */
export function fillText(
  text: string,
  variables: readonly CalculatedVariable[],
  values: DrawnValues,
): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    if (!Object.prototype.hasOwnProperty.call(values, name)) return whole;
    const variable = variables.find((each) => each.name === name);
    const unit = variable?.unit ? ` ${variable.unit}` : '';
    return `${shownValue(variable, values[name]!)}${unit}`;
  });
}

/** One value per variable, drawn with `random` (in [0, 1)). */
export function drawValues(
  variables: readonly CalculatedVariable[],
  random: () => number = Math.random,
): Record<string, number> {
  const values: Record<string, number> = {};
  for (const variable of variables) {
    const decimals = decimalsOf(variable);
    const size = variable.step ?? 10 ** -decimals;
    // A whole number of steps from min: every step, both bounds included, equally likely (the
    // small slack keeps a max that float division lands just short of).
    const steps = Math.floor((variable.max - variable.min) / size + 1e-9);
    const step = Math.min(steps, Math.floor(random() * (steps + 1)));
    values[variable.name] = roundTo(variable.min + step * size, decimals);
  }
  return values;
}

/** A formula's right answer for one draw, rounded so that float noise does not show. */
export function rightValue(formula: Formula, values: DrawnValues): number {
  const value = evaluate(formula, values);
  return Number.isFinite(value) ? Number(value.toPrecision(12)) : value;
}

/** Draws checked when a question is written: the bounds, then these many at random. */
const CHECK_DRAWS = 24;

export type CalculatedIssue = (field: 'formula' | 'variables' | 'text', message: string) => void;

/**
 * The checks across a calculated question's fields: each variable well formed, the formula
 * readable and using only the variables, the text showing every variable and no other, and a
 * finite answer for the variables' ranges (both bounds, and a few draws between).
 */
export function checkCalculated(
  input: {
    text?: string | undefined;
    formula?: string | undefined;
    variables?: readonly CalculatedVariable[] | undefined;
  },
  issue: CalculatedIssue,
  random: () => number = Math.random,
): void {
  const variables = input.variables ?? [];
  if (variables.length === 0) {
    issue(
      'variables',
      'a calculated question needs variables: [{name, min, max, decimals or step, unit}], one per {name} in its text',
    );
  }
  if (variables.length > VARIABLE_LIMITS.count) {
    issue('variables', `takes at most ${VARIABLE_LIMITS.count} variables (got ${variables.length})`);
  }
  const seen = new Set<string>();
  let wellFormed = true;
  variables.forEach((variable, index) => {
    const at = `variables[${index}]`;
    const fail = (message: string) => {
      wellFormed = false;
      issue('variables', `${at} ${message}`);
    };
    if (
      !VARIABLE_NAME.test(variable.name) ||
      variable.name.length > VARIABLE_LIMITS.nameLength ||
      variable.name in Object.prototype
    ) {
      fail(
        `name "${variable.name}" must be a letter then letters, digits or _, at most ${VARIABLE_LIMITS.nameLength} long`,
      );
    } else if (RESERVED_NAMES.has(variable.name)) {
      fail(`name "${variable.name}" is a function or constant of formulas: choose another`);
    } else if (seen.has(variable.name)) {
      fail(`repeats the name "${variable.name}": each variable needs its own`);
    }
    seen.add(variable.name);
    if (variable.step !== undefined && variable.decimals !== undefined) {
      fail('takes decimals or step, not both: step says its values, and their decimals with them');
    } else if (variable.step !== undefined) {
      if (!(variable.step > 0) || !Number.isFinite(variable.step)) {
        fail('step must be a number above 0 (values drawn are min, min + step, ... up to max)');
      } else if (stepDecimals(variable.step) > VARIABLE_LIMITS.decimals) {
        fail(`step takes at most ${VARIABLE_LIMITS.decimals} decimals`);
      }
    } else if (
      variable.decimals !== undefined &&
      (!Number.isInteger(variable.decimals) ||
        variable.decimals < 0 ||
        variable.decimals > VARIABLE_LIMITS.decimals)
    ) {
      fail(`decimals must be a whole number from 0 to ${VARIABLE_LIMITS.decimals}`);
    }
    if (variable.unit !== undefined && variable.unit.length > VARIABLE_LIMITS.unitLength) {
      fail(`unit takes at most ${VARIABLE_LIMITS.unitLength} characters`);
    }
    const bounds = [variable.min, variable.max];
    if (!bounds.every((bound) => Number.isFinite(bound) && Math.abs(bound) <= VARIABLE_LIMITS.magnitude)) {
      fail(`min and max must be numbers within ±${VARIABLE_LIMITS.magnitude}`);
    } else if (variable.min > variable.max) {
      fail(`min (${variable.min}) is above max (${variable.max})`);
    }
  });
  const names = new Set(variables.map((variable) => variable.name));
  if (input.text !== undefined) {
    const shown = placeholders(input.text);
    const unknown = shown.filter((name) => !names.has(name));
    if (unknown.length > 0) {
      issue(
        'variables',
        `the text shows {${unknown.join('}, {')}} but no variable is named so: add it to variables`,
      );
    }
    const hidden = [...names].filter((name) => !shown.includes(name));
    if (hidden.length > 0) {
      issue(
        'variables',
        `${hidden.join(', ')} ${hidden.length === 1 ? 'is' : 'are'} not shown in the text: write {${hidden.join('}, {')}} where the value goes`,
      );
    }
  }
  if (input.formula === undefined) {
    issue('formula', 'a calculated question needs formula: its answer over the variables, e.g. a * b');
    return;
  }
  const parsed = parseFormula(input.formula);
  if ('problem' in parsed) {
    issue('formula', `formula ${parsed.problem}`);
    return;
  }
  const unknown = [...parsed.formula.names].filter((name) => !names.has(name));
  if (unknown.length > 0) {
    issue(
      'formula',
      `formula uses ${unknown.join(', ')}, which ${unknown.length === 1 ? 'is' : 'are'} not a variable: add ${unknown.length === 1 ? 'it' : 'them'} to variables, or use a function it knows`,
    );
    return;
  }
  if (!wellFormed || variables.length === 0) return;
  const draws = [
    Object.fromEntries(variables.map((variable) => [variable.name, variable.min])),
    Object.fromEntries(variables.map((variable) => [variable.name, variable.max])),
    ...Array.from({ length: CHECK_DRAWS }, () => drawValues(variables, random)),
  ];
  for (const values of draws) {
    if (!Number.isFinite(rightValue(parsed.formula, values))) {
      const at = variables.map(
        (variable) => `${variable.name} = ${shownValue(variable, values[variable.name]!)}`,
      );
      issue(
        'formula',
        `formula has no finite value for ${at.join(', ')}: change the formula or the variables' ranges`,
      );
      return;
    }
  }
}

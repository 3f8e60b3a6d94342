import jsep from 'jsep';

/**
 * A calculated question's formula: parsed by jsep (a maintained expression parser that only
 * builds a syntax tree, never runs anything) and evaluated here over a whitelist of operators,
 * functions and constants (docs/decisions/0025-calculated-formulas.md). Anything else the parser
 * knows (member access, `this`, strings, arrays, comparisons, calls of other names) is refused
 * with a message that says what to write instead.
 */

/** Longest formula, deepest nesting and most parts taken: each bound keeps parsing and marking cheap. */
export const FORMULA_LIMITS = { length: 500, nesting: 20, depth: 40, nodes: 200 } as const;

/** A checked formula: its tree in our own shape, and the variable names it uses. */
export interface Formula {
  readonly root: Node;
  readonly names: ReadonlySet<string>;
}

type Node =
  | { kind: 'number'; value: number }
  | { kind: 'name'; name: string }
  | { kind: 'unary'; op: '-' | '+'; arg: Node }
  | { kind: 'binary'; op: BinaryOp; left: Node; right: Node }
  | { kind: 'call'; fn: FunctionName; args: Node[] };

const BINARY = {
  '+': (a: number, b: number) => a + b,
  '-': (a: number, b: number) => a - b,
  '*': (a: number, b: number) => a * b,
  '/': (a: number, b: number) => a / b,
  '%': (a: number, b: number) => a % b,
  '**': (a: number, b: number) => a ** b,
} as const;
type BinaryOp = keyof typeof BINARY;

/** Each function with its smallest and largest number of arguments. */
const FUNCTIONS = {
  sqrt: [1, 1, Math.sqrt],
  abs: [1, 1, Math.abs],
  sin: [1, 1, Math.sin],
  cos: [1, 1, Math.cos],
  tan: [1, 1, Math.tan],
  asin: [1, 1, Math.asin],
  acos: [1, 1, Math.acos],
  atan: [1, 1, Math.atan],
  atan2: [2, 2, Math.atan2],
  sinh: [1, 1, Math.sinh],
  cosh: [1, 1, Math.cosh],
  tanh: [1, 1, Math.tanh],
  exp: [1, 1, Math.exp],
  ln: [1, 1, Math.log],
  // As in Moodle's formulas (PHP's log): natural, or in the base given second.
  log: [
    1,
    2,
    (x: number, base?: number) => (base === undefined ? Math.log(x) : Math.log(x) / Math.log(base)),
  ],
  log10: [1, 1, Math.log10],
  pow: [2, 2, Math.pow],
  fmod: [2, 2, (a: number, b: number) => a % b],
  floor: [1, 1, Math.floor],
  ceil: [1, 1, Math.ceil],
  round: [1, 2, (x: number, digits = 0) => roundTo(x, digits)],
  min: [1, 10, Math.min],
  max: [1, 10, Math.max],
  deg2rad: [1, 1, (x: number) => (x * Math.PI) / 180],
  rad2deg: [1, 1, (x: number) => (x * 180) / Math.PI],
  // Moodle writes pi as a call.
  pi: [0, 0, () => Math.PI],
} as const satisfies Record<string, readonly [number, number, (...args: number[]) => number]>;
type FunctionName = keyof typeof FUNCTIONS;

const CONSTANTS: Readonly<Record<string, number>> = { pi: Math.PI, e: Math.E };

/** Names a formula may use beside its variables; a variable cannot take one. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set([
  ...Object.keys(FUNCTIONS),
  ...Object.keys(CONSTANTS),
]);

const has = (table: object, key: string) => Object.prototype.hasOwnProperty.call(table, key);

/** A number rounded to `digits` decimals (negative: tens, hundreds), half away from zero. */
export function roundTo(value: number, digits: number): number {
  const places = Math.max(-15, Math.min(15, Math.trunc(digits)));
  const factor = 10 ** places;
  return (Math.sign(value) * Math.round(Math.abs(value) * factor + Number.EPSILON)) / factor;
}

// jsep builds the same node for `-a ** 2` and `(-a) ** 2`; a node that comes out of parentheses
// passes the after-token hook once more, which is how `-a^2` (ambiguous, refused as JavaScript
// does) is told from `(-a)^2`. jsep's hooks are its own module's; nothing else here parses with it.
const tokenPasses = new WeakMap<object, number>();
jsep.hooks.add('after-token', (env: { node?: unknown }) => {
  const node = env.node;
  if (typeof node === 'object' && node !== null) tokenPasses.set(node, (tokenPasses.get(node) ?? 0) + 1);
});

class FormulaProblem extends Error {}

function deepestNesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (const char of text) {
    if (char === '(' || char === '[') deepest = Math.max(deepest, ++depth);
    else if (char === ')' || char === ']') depth -= 1;
  }
  return deepest;
}

const NOT_ALLOWED =
  'use only numbers, the variables, + - * / % ^, parentheses and the functions sqrt, abs, sin, cos, tan, asin, acos, atan, atan2, exp, ln, log, log10, pow, round, floor, ceil, min, max and pi';

function convert(expression: jsep.Expression, depth: number, count: { nodes: number }): Node {
  if (depth > FORMULA_LIMITS.depth) {
    throw new FormulaProblem(`nests deeper than ${FORMULA_LIMITS.depth} levels: write it more simply`);
  }
  if (++count.nodes > FORMULA_LIMITS.nodes) {
    throw new FormulaProblem(`has more than ${FORMULA_LIMITS.nodes} parts: write it more simply`);
  }
  const next = (child: jsep.Expression) => convert(child, depth + 1, count);
  switch (expression.type) {
    case 'Literal': {
      const value = (expression as jsep.Literal).value;
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw new FormulaProblem(`cannot hold ${String((expression as jsep.Literal).raw)}: ${NOT_ALLOWED}`);
      }
      return { kind: 'number', value };
    }
    case 'Identifier': {
      const name = (expression as jsep.Identifier).name;
      if (has(FUNCTIONS, name) && !has(CONSTANTS, name)) {
        throw new FormulaProblem(`uses ${name} without parentheses: write ${name}(...)`);
      }
      return { kind: 'name', name };
    }
    case 'UnaryExpression': {
      const unary = expression as jsep.UnaryExpression;
      if (unary.operator !== '-' && unary.operator !== '+') {
        throw new FormulaProblem(`cannot use ${unary.operator}: ${NOT_ALLOWED}`);
      }
      return { kind: 'unary', op: unary.operator, arg: next(unary.argument) };
    }
    case 'BinaryExpression': {
      const binary = expression as jsep.BinaryExpression;
      if (!has(BINARY, binary.operator)) {
        throw new FormulaProblem(`cannot use ${binary.operator}: ${NOT_ALLOWED}`);
      }
      if (
        binary.operator === '**' &&
        binary.left.type === 'UnaryExpression' &&
        (tokenPasses.get(binary.left) ?? 0) < 2
      ) {
        throw new FormulaProblem('has a sign before a power: write -(a^2) or (-a)^2');
      }
      return {
        kind: 'binary',
        op: binary.operator as BinaryOp,
        left: next(binary.left),
        right: next(binary.right),
      };
    }
    case 'CallExpression': {
      const call = expression as jsep.CallExpression;
      const callee = call.callee;
      const name = callee.type === 'Identifier' ? (callee as jsep.Identifier).name : null;
      if (name === null || !has(FUNCTIONS, name)) {
        throw new FormulaProblem(
          `calls ${name ?? 'something'} that is not a function it knows: ${NOT_ALLOWED}`,
        );
      }
      const [least, most] = FUNCTIONS[name as FunctionName];
      const count_ = call.arguments.length;
      if (count_ < least || count_ > most) {
        const wanted = least === most ? `${least}` : `${least} to ${most}`;
        throw new FormulaProblem(
          `gives ${name} ${count_} argument${count_ === 1 ? '' : 's'}: it takes ${wanted}`,
        );
      }
      return { kind: 'call', fn: name as FunctionName, args: call.arguments.map(next) };
    }
    case 'ThisExpression':
      throw new FormulaProblem(`cannot use this: ${NOT_ALLOWED}`);
    case 'MemberExpression':
      throw new FormulaProblem(`cannot reach into a value with . or [ ]: ${NOT_ALLOWED}`);
  }
  // Arrays, strings' kin, sequences, conditionals: nothing a formula holds.
  throw new FormulaProblem(`cannot hold that (${expression.type}): ${NOT_ALLOWED}`);
}

function namesOf(node: Node, into: Set<string>): Set<string> {
  if (node.kind === 'name') into.add(node.name);
  else if (node.kind === 'unary') namesOf(node.arg, into);
  else if (node.kind === 'binary') {
    namesOf(node.left, into);
    namesOf(node.right, into);
  } else if (node.kind === 'call') node.args.forEach((arg) => namesOf(arg, into));
  return into;
}

/**
 * A formula read and checked, or what is wrong with it in words that follow "formula ...".
 * `{a}` reads as `a` (Moodle writes its variables so), and `^` is a power.
 */
export function parseFormula(text: string): { formula: Formula } | { problem: string } {
  if (text.trim() === '') return { problem: 'is empty: write the answer as a formula, e.g. a * b' };
  if (text.length > FORMULA_LIMITS.length) {
    return { problem: `is longer than ${FORMULA_LIMITS.length} characters` };
  }
  // jsep descends once per parenthesis: bounded before it runs.
  if (deepestNesting(text) > FORMULA_LIMITS.nesting) {
    return { problem: `nests more than ${FORMULA_LIMITS.nesting} parentheses: write it more simply` };
  }
  const plain = text.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, '$1').replace(/\^/g, '**');
  let tree: jsep.Expression;
  try {
    tree = jsep(plain);
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/ at character \d+$/, '') : 'unreadable';
    return { problem: `cannot be read (${detail}): ${NOT_ALLOWED}` };
  }
  try {
    const root = convert(tree, 0, { nodes: 0 });
    const names = namesOf(root, new Set());
    for (const name of names) if (has(CONSTANTS, name)) names.delete(name);
    return { formula: { root, names } };
  } catch (error) {
    if (error instanceof FormulaProblem) return { problem: error.message };
    throw error;
  }
}

/**
 * The formula's value for the variables' values; NaN when a name has no value. Its tree is
 * bounded (FORMULA_LIMITS), and nothing loops, so this is quick for any formula it holds.
 */
export function evaluate(formula: Formula, values: Readonly<Record<string, number>>): number {
  const run = (node: Node): number => {
    switch (node.kind) {
      case 'number':
        return node.value;
      case 'name':
        if (has(values, node.name)) return values[node.name]!;
        return has(CONSTANTS, node.name) ? CONSTANTS[node.name]! : Number.NaN;
      case 'unary':
        return node.op === '-' ? -run(node.arg) : run(node.arg);
      case 'binary':
        return BINARY[node.op](run(node.left), run(node.right));
      case 'call': {
        const fn = FUNCTIONS[node.fn][2] as (...args: number[]) => number;
        return fn(...node.args.map(run));
      }
    }
  };
  return run(formula.root);
}

/**
 * The formula as Moodle writes one: variables as `{name}`, powers as pow(), pi as pi(), every
 * operation in parentheses (Moodle evaluates PHP, where ^ is not a power). Unreadable: as is.
 */
export function moodleFormula(text: string): string {
  const parsed = parseFormula(text);
  if ('problem' in parsed) return text;
  const print = (node: Node): string => {
    switch (node.kind) {
      case 'number':
        return String(node.value);
      case 'name':
        return has(CONSTANTS, node.name) && !parsed.formula.names.has(node.name)
          ? node.name === 'pi'
            ? 'pi()'
            : 'exp(1)'
          : `{${node.name}}`;
      case 'unary':
        return `(${node.op}${print(node.arg)})`;
      case 'binary':
        return node.op === '**'
          ? `pow(${print(node.left)}, ${print(node.right)})`
          : node.op === '%'
            ? `fmod(${print(node.left)}, ${print(node.right)})`
            : `(${print(node.left)} ${node.op} ${print(node.right)})`;
      case 'call':
        return `${node.fn}(${node.args.map(print).join(', ')})`;
    }
  };
  return print(parsed.formula.root);
}

// The one renderer of a quiz's texts: escaped, TeX typeset as MathML, code shown as code. The
// browser's reading of the same markup (no script, no link, math laid out) is in
// tests/respondent/maths.browser.test.ts; here the markup itself.
import { formulaProblems, richPieces } from '../../src/domain/rich-text';
import { richText } from '../../src/web/rich-text';

interface Element {
  tagName: string;
  attrs: Array<{ name: string; value: string }>;
}

const OFF = { dollars: false };
const ON = { dollars: true };
const render = (text: string, options = OFF) => String(richText(text, options));

/** The start tags of the markup with their attributes (the renderer writes every value quoted). */
function elements(markup: string): Element[] {
  return [...markup.matchAll(/<([a-zA-Z][\w-]*)((?:\s+[^\s=>]+="[^"]*")*)\s*\/?>/g)].map((match) => ({
    tagName: match[1]!,
    attrs: [...match[2]!.matchAll(/([^\s=]+)="([^"]*)"/g)].map((attr) => ({
      name: attr[1]!,
      value: attr[2]!,
    })),
  }));
}
const tags = (markup: string) => elements(markup).map((element) => element.tagName);

describe('formulas', () => {
  test('\\(...\\) is typeset inline, \\[...\\] displayed, each one <math> laid out left to right', () => {
    const inline = render('Half: \\(\\frac{1}{2}\\) of 4?');
    expect(inline).toMatch(/^Half: <math dir="ltr"><mfrac><mn>1<\/mn><mn>2<\/mn><\/mfrac><\/math> of 4\?$/);
    const display = render('Solve \\[x^2 = 2\\] now');
    const math = elements(display).find((element) => element.tagName === 'math')!;
    expect(math.attrs).toEqual(expect.arrayContaining([{ name: 'display', value: 'block' }]));
    expect(tags(display)).toEqual(expect.arrayContaining(['msup', 'mo', 'mn']));
  });

  test('$...$ and $$...$$ are formulas only with math_dollars on', () => {
    const text = 'Area $\\pi r^2$ and $$\\sqrt{2}$$';
    expect(render(text, OFF)).toBe('Area $\\pi r^2$ and $$\\sqrt{2}$$');
    const on = render(text, ON);
    expect(tags(on).filter((tag) => tag === 'math')).toHaveLength(2);
    expect(on).toContain('<msqrt>');
    // \( \) and \[ \] are typeset either way.
    expect(tags(render('\\(x\\)', ON))).toContain('math');
  });

  test('"$5 and $10" stays text, with math_dollars off and on; \\$ is a dollar sign when on', () => {
    expect(render('It costs $5 and $10.', OFF)).toBe('It costs $5 and $10.');
    expect(render('It costs $5 and $10.', ON)).toBe('It costs $5 and $10.');
    expect(render('Pay \\$3 for $x$', ON)).toMatch(/^Pay \$3 for <math dir="ltr"><mi>x<\/mi><\/math>$/);
  });

  test('a formula that does not parse is shown as its source, and named with the reason', () => {
    const text = 'Broken \\(\\frac{1\\) here';
    expect(render(text)).toBe('Broken <span class="formula-source" dir="ltr">\\(\\frac{1\\)</span> here');
    expect(formulaProblems(text, OFF)).toEqual([
      { source: '\\(\\frac{1\\)', error: expect.stringContaining("expected '}'") },
    ]);
    expect(formulaProblems('Fine \\(x\\) and $5', OFF)).toEqual([]);
    // An unclosed delimiter is no formula at all: plain text.
    expect(render('Open \\( never closed')).toBe('Open \\( never closed');
  });

  test('HTML in TeX is escaped: \\(<script>\\) builds no script, \\href no link', () => {
    const script = render('\\(<script>alert(1)</script>\\)');
    expect(tags(script)).not.toContain('script');
    expect(script).toContain('<mo>&lt;</mo>');
    const href = render('\\(\\href{javascript:alert(1)}{click}\\)');
    expect(tags(href)).not.toContain('a');
    expect(elements(href).flatMap((element) => element.attrs.map((attr) => attr.name))).not.toContain('href');
    expect(href).toBe(
      '<span class="formula-source" dir="ltr">\\(\\href{javascript:alert(1)}{click}\\)</span>',
    );
    expect(formulaProblems('\\(\\href{javascript:alert(1)}{click}\\)', OFF)).toHaveLength(1);
    // Untrusted commands that would style or link: refused, shown as written.
    for (const tex of [
      '\\(\\style{color:red}{x}\\)',
      '\\(\\class{x}{y}\\)',
      '\\(\\includegraphics{x.png}\\)',
    ]) {
      expect(tags(render(tex))).not.toContain('math');
    }
  });

  test('no inline style reaches the page (the CSP forbids it): a colour becomes mathcolor', () => {
    const markup = render('\\(\\color{red}{x}\\) \\(\\boxed{y}\\) \\[z\\] \\(\\raisebox{1em}{w}\\)');
    const attributes = elements(markup).flatMap((element) => element.attrs.map((attr) => attr.name));
    expect(attributes).not.toContain('style');
    expect(markup).toContain('mathcolor="#ff0000"');
  });

  test('plain text is escaped as before', () => {
    expect(render('<b>bold</b> & "quoted"')).toBe('&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;');
  });
});

describe('code', () => {
  test('a backtick span is code, left to right, its HTML escaped, nothing typeset inside', () => {
    const markup = render('Run `a<b && \\(x\\)` now');
    expect(markup).toBe('Run <code dir="ltr">a&lt;b &amp;&amp; \\(x\\)</code> now');
  });

  test('a fenced block is one code block, without its language line', () => {
    const markup = render('Read:\n```python\nfor i in range(3):\n    print(i)\n```\nThen answer.');
    const code = elements(markup).find((element) => element.tagName === 'code')!;
    expect(code.attrs).toEqual(
      expect.arrayContaining([
        { name: 'class', value: 'code-block' },
        { name: 'dir', value: 'ltr' },
      ]),
    );
    expect(richPieces('```python\nfor i in range(3):\n    print(i)\n```', OFF)).toEqual([
      { kind: 'code', text: 'for i in range(3):\n    print(i)', block: true },
    ]);
  });

  test('in an Arabic text, code and formulas stay left to right', () => {
    const markup = render('ما ناتج `print(1 + 2)` و \\(1+2\\)؟');
    const ltr = elements(markup).filter((element) =>
      element.attrs.some((a) => a.name === 'dir' && a.value === 'ltr'),
    );
    expect(ltr.map((element) => element.tagName)).toEqual(['code', 'math']);
  });

  test('a lone backtick is text; a double-backtick span may hold one', () => {
    expect(render('It`s fine')).toBe('It`s fine');
    expect(render('``a`b``')).toBe('<code dir="ltr">a`b</code>');
  });
});

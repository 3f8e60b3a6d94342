// How the quiz editor's page would post itself: the editor suites read a page and send it back,
// changed where a test says so.
export type Form = Record<string, string>;

/** The fields the page would send: text, hidden, ticked boxes and radios, selects. */
export function formOf(page: string): Form {
  const form: Form = {};
  const decode = (text: string) =>
    text
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  for (const input of page.matchAll(/<input\b([^>]*)>/g)) {
    const attrs = input[1]!;
    const name = /name="([^"]*)"/.exec(attrs)?.[1];
    if (!name) continue;
    const type = /type="([^"]*)"/.exec(attrs)?.[1] ?? 'text';
    if ((type === 'checkbox' || type === 'radio') && !/\bchecked\b/.test(attrs)) continue;
    form[name] = type === 'checkbox' ? 'on' : decode(/value="([^"]*)"/.exec(attrs)?.[1] ?? '');
  }
  for (const area of page.matchAll(/<textarea\b[^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/textarea>/g)) {
    form[area[1]!] = decode(area[2]!);
  }
  for (const select of page.matchAll(/<select\b[^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/select>/g)) {
    form[select[1]!] = /<option value="([^"]*)"\s*selected/.exec(select[2]!)?.[1] ?? '';
  }
  return form;
}

import type { Readable, Writable } from 'node:stream';

/**
 * A password for the CLI, never from its arguments. On a terminal: a prompt on stderr, the
 * typed characters not echoed, Enter ends it, Ctrl+C aborts. Otherwise (a pipe or a file): the
 * first line of standard input, without its line ending.
 */
export async function readPassword(prompt: string, input: Readable, prompts: Writable): Promise<string> {
  const tty = input as Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => void };
  if (tty.isTTY && tty.setRawMode)
    return readFromTerminal(prompt, tty as Readable & { setRawMode(raw: boolean): void }, prompts);
  let text = '';
  for await (const chunk of input) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

function readFromTerminal(
  prompt: string,
  input: Readable & { setRawMode(raw: boolean): void },
  prompts: Writable,
): Promise<string> {
  prompts.write(prompt);
  input.setRawMode(true);
  input.setEncoding('utf8');
  input.resume();
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (error?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      prompts.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return finish();
        if (char === '\u0003') return finish(new Error('cancelled'));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    input.on('data', onData);
  });
}

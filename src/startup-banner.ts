import type { Config } from './config';
import { describeDatabaseUrl } from './db/database';
import { classReachHint, type ClassReachHint } from './http/class-reach';

/**
 * What a person needs once the service is up, on stderr (stdout carries the JSON log lines,
 * which collectors read). Colour only on a terminal, and never with NO_COLOR set.
 */
export function startupBanner(
  config: Config,
  options: { colour: boolean; reach?: ClassReachHint | undefined },
): string {
  const bold = (text: string) => (options.colour ? `\u001b[1m${text}\u001b[22m` : text);
  const dim = (text: string) => (options.colour ? `\u001b[2m${text}\u001b[22m` : text);
  const database = describeDatabaseUrl(config.databaseUrl);
  const kind = database.startsWith('file:') ? 'SQLite' : 'PostgreSQL';
  const rows: Array<[string, string]> = [
    ['Home', `${config.baseUrl}/`],
    ['Dashboard', `${config.baseUrl}/dashboard`],
    ['MCP endpoint', `${config.baseUrl}/api/mcp`],
    ['API docs', `${config.baseUrl}/en/docs/api-reference`],
    ['Database', `${kind}, ${database}`],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  const reach = 'reach' in options ? options.reach : classReachHint(config);
  return [
    '',
    bold('Quiz service is running.'),
    '',
    ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`),
    '',
    ...(reach
      ? [
          bold(`Only this computer can open these links: they name ${reach.baseUrl}.`),
          `To let a class on this network in (their QR codes too), start with: ${reach.settings} npm start`,
          '',
        ]
      : []),
    dim('Connect an assistant: open the home page, "Connect your assistant". Stop with Ctrl+C.'),
    '',
  ].join('\n');
}

/** Colour when the stream is a terminal and NO_COLOR is unset or empty (no-color.org). */
export function wantsColour(stream: { isTTY?: boolean }, config: Pick<Config, 'noColor'>): boolean {
  return Boolean(stream.isTTY) && !config.noColor;
}

/** A listen error a person can act on, or undefined for any other failure. */
export function listenErrorMessage(
  error: unknown,
  config: Pick<Config, 'port' | 'host'>,
): string | undefined {
  const code = (error as { code?: unknown }).code;
  if (code === 'EADDRINUSE') {
    return (
      `Port ${config.port} on ${config.host} is already in use (another quiz service, or another program). ` +
      `Stop it, or start on another port: PORT=${config.port + 1} npm start ` +
      `(BASE_URL follows PORT unless you set it).`
    );
  }
  if (code === 'EACCES') {
    return `Port ${config.port} needs privileges this process does not have. Choose a port above 1023: PORT=3000 npm start`;
  }
  if (code === 'EADDRNOTAVAIL') {
    return `HOST=${config.host} is not an address of this machine. Use 127.0.0.1, 0.0.0.0 or one of its addresses.`;
  }
  return undefined;
}

/** A form value as a string ('' when absent or sent as a list: `a=1&a=2`). */
export function formString(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

import type { Messages } from './en';
export const es: Messages = { ...({} as Messages) };

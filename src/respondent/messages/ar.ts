import type { Messages } from './en';
export const ar: Messages = { ...({} as Messages) };

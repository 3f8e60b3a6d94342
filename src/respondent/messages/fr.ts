import type { Messages } from './en';
export const fr: Messages = { ...({} as Messages) };

import type { Messages } from './en';
export const de: Messages = { ...({} as Messages) };

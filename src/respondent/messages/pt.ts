import type { Messages } from './en';
export const pt: Messages = { ...({} as Messages) };

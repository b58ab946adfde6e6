import { header, param, type SipRequest } from './message';

export { header };

/** A dialog-creating request: no To-tag yet. */
export const newTagless = (req: SipRequest) => param(header(req, 'to') ?? '', 'tag') === undefined;

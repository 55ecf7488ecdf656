/** Largest JSON body of any route: a transaction with its logoConfig is a few kB. */
export const JSON_BODY_LIMIT = 64 * 1024;
/** Room for the multipart framing (boundaries, part headers) around the one uploaded file. */
export const MULTIPART_OVERHEAD = 64 * 1024;

/**
 * What a response schema of a service says, as the browser receives it: the services' zod
 * schemas type timestamps as `Date` (what pg gives them), JSON carries ISO strings.
 *
 *   type Customer = Json<z.infer<typeof customerDetail>>;
 */
export type Json<T> = T extends Date
  ? string
  : T extends Array<infer U>
    ? Array<Json<U>>
    : T extends object
      ? { [K in keyof T]: Json<T[K]> }
      : T;

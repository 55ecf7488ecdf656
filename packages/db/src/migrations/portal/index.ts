import * as m0001 from './0001_portal_schema';

export const migrations = { '0001_portal_schema': m0001 };

import * as m0001 from './0001_aplt_schema';

export const migrations = { '0001_aplt_schema': m0001 };

import * as m0001 from './0001_commerce_schema';

export const migrations = { '0001_commerce_schema': m0001 };

import * as m0001 from './0001_commerce_schema';
import * as m0201 from './0201_auth_reset_tokens';

export const migrations = { '0001_commerce_schema': m0001, '0201_auth_reset_tokens': m0201 };

import * as m0001 from './0001_commerce_schema';
import * as m0201 from './0201_auth_reset_tokens';
import * as m0202 from './0202_auth_token_revocation';
import * as m0510 from './0510_catalog_sync_fingerprints';
import * as m0901 from './0901_customer_avatar';

export const migrations = {
  '0001_commerce_schema': m0001,
  '0201_auth_reset_tokens': m0201,
  '0202_auth_token_revocation': m0202,
  '0510_catalog_sync_fingerprints': m0510,
  '0901_customer_avatar': m0901,
};

import * as m0001 from './0001_portal_schema';
import * as m0701 from './0701_portal_auth_tickets';

export const migrations = { '0001_portal_schema': m0001, '0701_portal_auth_tickets': m0701 };

/** `@aplt/service-portal/password-hash`: portal passwords hashed as the portal stores them (seed). */
export { hashPortalPassword } from '../auth/password-hash';

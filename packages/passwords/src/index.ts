export { hashPassword, verifyPassword, SCRYPT_PARAMS, MEDUSA_HASH_PREFIX } from './scrypt';

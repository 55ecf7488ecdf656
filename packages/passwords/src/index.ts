export { hashPassword, verifyPassword, SCRYPT_PARAMS, MEDUSA_HASH_PREFIX } from './scrypt';
export {
  passwordProblems,
  COMMERCE_PASSWORD_POLICY,
  PORTAL_PASSWORD_POLICY,
  STAFF_PASSWORD_POLICY,
  type PasswordPolicy,
} from './policy';
export { newRecoveryCode, newRecoveryCodes, RECOVERY_CODE_COUNT, recoveryCodeHash } from './recovery-codes';

/**
 * The access service's test harness, published as `@aplt/service-access/testing` for the tests
 * of other packages that put access in front of themselves: the access app on a private
 * database, and the helpers to sign in through it as a browser would.
 */
export { createAccessAppForTest } from './access-app';
export {
  codeFromMail,
  cookieHeader,
  cookiesOf,
  csrfSession,
  injectSend,
  type Send,
  solvedCaptcha,
  startLogin,
} from './helpers';

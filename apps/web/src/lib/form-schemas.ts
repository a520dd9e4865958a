/*
 * The contract's schemas that lazyZodRule checks (the sign-in, register,
 * reset-password and two-factor forms, and the "filled" rule of a password
 * confirmation). lib/form-rules imports this module only dynamically: zod
 * downloads with the first check of such a field, not with the public pages.
 * Importing `@proxy/contract` itself lazily would make its whole index (every
 * schema, ipaddr.js) one chunk that the signed-in pages would then download.
 */
export {
  ZChangePasswordForm,
  ZLoginForm,
  ZRegisterForm,
  ZResetPasswordForm,
  zTotpOrRecoveryCode,
} from '@proxy/contract';

import type { FormInstance, FormRule } from 'antd';
import { validationMessage } from '@proxy/contract/light';
import { getLanguage } from './i18n';
import type * as FormSchemas from './form-schemas';

type TIssue = { message: string; path: PropertyKey[] };

/**
 * The part of a zod schema these rules use; any schema of @proxy/contract
 * (zod 4 `ZodType`) fits, without the console depending on zod itself.
 */
export type ZodType = {
  safeParseAsync: (value: unknown) => Promise<{ success: true } | { success: false; error: { issues: TIssue[] } }>;
};

/**
 * An antd Form rule that runs a zod schema of the contract on the field value
 * and shows its translated message, so console and server share the rules.
 */
export function zodRule(schema: ZodType): FormRule {
  return { validator: (_rule, value: unknown) => checkWithZod(schema, value) };
}

/** Runs a zod schema of the contract on a value: rejects with its translated message (the sign-in pages' forms use it too). */
export async function checkWithZod(schema: ZodType, value: unknown): Promise<void> {
  const result = await schema.safeParseAsync(value);
  if (!result.success)
    throw new Error(validationMessage(result.error.issues[0]?.message ?? 'invalidValue', getLanguage()));
}

/**
 * A rule for one field checked against a whole-form schema (e.g. the
 * "passwords are inconsistent" refinement on confirm_password). Only issues
 * whose path starts with `field` count. Zod runs object refinements only when
 * every field parses, so pair it with zodRule on the other fields.
 */
export function zodFormRule(schema: ZodType, field: string): FormRule {
  return ({ getFieldsValue }) => ({
    validator: async () => {
      const result = await schema.safeParseAsync(getFieldsValue(true));
      if (result.success) return;
      const issue = result.error.issues.find((i) => i.path[0] === field);
      if (issue) throw new Error(validationMessage(issue.message, getLanguage()));
    },
  });
}

/** The contract's schemas of the public forms (zod), fetched on the first check of a lazy rule. */
type TFormSchemas = typeof FormSchemas;

/**
 * zodRule for a schema of the contract picked when the field is first
 * checked: the schemas (and zod, ~36 KB gzipped) download then, not with the
 * page. The public pages (sign-in, register, reset) use it.
 */
export function lazyZodRule(pick: (schemas: TFormSchemas) => ZodType): FormRule {
  return {
    validator: async (_rule, value: unknown) => checkWithZod(pick(await import('./form-schemas')), value),
  };
}

/** A field that only has to be filled: the contract's "required" rule (non-empty string). */
const filledRule = lazyZodRule((schemas) => schemas.ZChangePasswordForm.shape.current_password);

/**
 * Rules of a "confirm password" field: filled, and equal to the form's
 * `password` field ("The two passwords you entered are inconsistent").
 */
export function getConfirmPasswordRules(form: FormInstance, passwordField = 'password'): FormRule[] {
  return [
    filledRule,
    {
      validator: (_rule, value) =>
        !value || value === form.getFieldValue(passwordField)
          ? Promise.resolve()
          : Promise.reject(new Error(validationMessage('passwordMismatch', getLanguage()))),
    },
  ];
}

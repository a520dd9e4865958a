import { useCallback, useMemo, useRef, useState, type FormEvent } from 'react';
import { validationMessage } from '@proxy/contract/light';
import { getLanguage } from '../../../lib/i18n';
import type * as FormSchemas from '../../../lib/form-schemas';
import { checkWithZod, type ZodType } from '../../../lib/form-rules';

/*
 * The sign-in pages' forms without antd's Form: values, one error per field,
 * checks as the user types (like antd's Form: a field is checked on each
 * change, its dependants once they were checked) and on submit, and the
 * server's refusals put under the fields (lib/server-issues' setFields).
 */

/** A check of a field's value: resolves when it passes, rejects with the message to show. */
export type TLightRule = (value: string, values: Record<string, string>) => Promise<void> | void;

/** The contract's zod schema of a field, fetched (with zod) on its first check, as lazyZodRule. */
export function lazyZodCheck(pick: (schemas: typeof FormSchemas) => ZodType): TLightRule {
  return async (value) => checkWithZod(pick(await import('../../../lib/form-schemas')), value);
}

/** A field that only has to be filled: the contract's "required" rule (non-empty string). */
const filledCheck = lazyZodCheck((schemas) => schemas.ZChangePasswordForm.shape.current_password);

/** Rules of a "confirm password" field: filled, and equal to the form's `password` field. */
export function confirmPasswordChecks(passwordField = 'password'): TLightRule[] {
  return [
    filledCheck,
    (value, values) => {
      if (value && value !== values[passwordField])
        throw new Error(validationMessage('passwordMismatch', getLanguage()));
    },
  ];
}

type TFieldErrors = Record<string, string | undefined>;

export type TLightForm = ReturnType<typeof useLightForm>;

/**
 * A form's state: `rules` per field name, `dependencies` (a field re-checked when another changes,
 * e.g. confirm_password on password), `initialValues`.
 */
export function useLightForm(options: {
  rules: Record<string, TLightRule[]>;
  initialValues?: Record<string, string>;
  dependencies?: Record<string, string[]>;
}) {
  const [values, setValues] = useState<Record<string, string>>(() => ({ ...options.initialValues }));
  const [errors, setErrors] = useState<TFieldErrors>({});
  const valuesRef = useRef(values);
  const checked = useRef(new Set<string>());
  // The latest check of each field wins (an earlier one may resolve later).
  const runs = useRef(new Map<string, number>());
  const { rules, dependencies } = options;

  const validateField = useCallback(
    async (name: string): Promise<boolean> => {
      const run = (runs.current.get(name) ?? 0) + 1;
      runs.current.set(name, run);
      checked.current.add(name);
      let message: string | undefined;
      for (const rule of rules[name] ?? []) {
        try {
          await rule(valuesRef.current[name] ?? '', valuesRef.current);
        } catch (error) {
          message = error instanceof Error ? error.message : String(error);
          break;
        }
      }
      if (runs.current.get(name) === run) setErrors((e) => (e[name] === message ? e : { ...e, [name]: message }));
      return message === undefined;
    },
    [rules],
  );

  const setValue = useCallback(
    (name: string, value: string) => {
      valuesRef.current = { ...valuesRef.current, [name]: value };
      setValues(valuesRef.current);
      void validateField(name);
      for (const [field, on] of Object.entries(dependencies ?? {})) {
        if (on.includes(name) && checked.current.has(field)) void validateField(field);
      }
    },
    [dependencies, validateField],
  );

  /** Checks the named fields (all by default); resolves with the values when every one passes, else null. */
  const validateFields = useCallback(
    async (names: string[] = Object.keys(rules)): Promise<Record<string, string> | null> => {
      const results = await Promise.all(names.map((name) => validateField(name)));
      return results.every(Boolean) ? valuesRef.current : null;
    },
    [rules, validateField],
  );

  /** Shows the server's refusals under the fields (lib/server-issues). */
  const setFields = useCallback((fields: { name: string; errors: string[] }[]) => {
    for (const field of fields) runs.current.set(field.name, (runs.current.get(field.name) ?? 0) + 1);
    setErrors((e) => ({ ...e, ...Object.fromEntries(fields.map((f) => [f.name, f.errors[0]])) }));
  }, []);

  /**
   * A submit handler: checks every field, then calls `onFinish` with the values. The browser drops what a handler
   * returns, so `onFinish` settles its own failures (the pages mark the fields the server refused).
   */
  const onSubmit = useCallback(
    (onFinish: (values: Record<string, string>) => unknown) => (event: FormEvent) => {
      event.preventDefault();
      void validateFields().then((valid) => valid && onFinish(valid));
    },
    [validateFields],
  );

  const getValue = useCallback((name: string) => valuesRef.current[name] ?? '', []);

  return useMemo(
    () => ({ values, errors, setValue, getValue, validateFields, setFields, onSubmit }),
    [values, errors, setValue, getValue, validateFields, setFields, onSubmit],
  );
}

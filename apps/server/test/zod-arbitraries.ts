import fc from 'fast-check';
import type { z } from 'zod';

/**
 * fast-check arbitraries built from the contract's zod 4 schemas: values a
 * client could send for a route (strings for query, path and form fields,
 * JSON values for bodies), so the generated suites cover every route. Refined
 * rules (`.refine`) are not modelled: generated values may break them, which
 * the server must answer with a 4xx like any other bad input.
 */

type TDef = { type: string; [key: string]: unknown };
type TCheck = {
  check: string;
  minimum?: number;
  maximum?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
};

function defOf(schema: z.ZodType): TDef {
  return (schema as unknown as { _zod: { def: TDef } })._zod.def;
}

function checksOf(def: TDef): TCheck[] {
  return ((def.checks as { _zod: { def: TCheck } }[] | undefined) ?? []).map((c) => c._zod.def);
}

function stringArbitrary(def: TDef): fc.Arbitrary<string> {
  const checks = checksOf(def);
  const format = (def.format as string | undefined) ?? checks.find((c) => c.check === 'string_format')?.format;
  const pattern = (def.pattern as RegExp | undefined) ?? checks.find((c) => c.format === 'regex')?.pattern;
  if (format === 'email') return fc.emailAddress();
  if (format === 'datetime')
    return fc
      .date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString());
  if (format === 'date')
    return fc
      .date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  if (format === 'url') return fc.webUrl();
  if (pattern) return fc.stringMatching(pattern);
  const min = checks.find((c) => c.check === 'min_length')?.minimum ?? 0;
  const max = checks.find((c) => c.check === 'max_length')?.maximum ?? Math.max(min, 40);
  return fc.string({ minLength: min, maxLength: Math.min(max, min + 40) });
}

function numberArbitrary(def: TDef): fc.Arbitrary<number> {
  const checks = checksOf(def);
  const isInt = checks.some((c) => c.check === 'number_format' && (c.format === 'safeint' || c.format === 'int32'));
  const low = checks.find((c) => c.check === 'greater_than');
  const high = checks.find((c) => c.check === 'less_than');
  const min = low ? (low.value ?? 0) + (low.inclusive ? 0 : isInt ? 1 : 0.001) : -1_000_000;
  const max = high ? (high.value ?? 0) - (high.inclusive ? 0 : isInt ? 1 : 0.001) : 1_000_000;
  return isInt
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** An arbitrary of valid-looking input for a schema, or null where the schema cannot be generated (a custom check). */
export function arbitraryOf(schema: z.ZodType): fc.Arbitrary<unknown> | null {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      return stringArbitrary(def);
    case 'number':
      return numberArbitrary(def);
    case 'boolean':
      return fc.boolean();
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch': {
      const inner = arbitraryOf(def.innerType as z.ZodType);
      return inner && def.type !== 'nullable' ? fc.option(inner, { nil: undefined }) : inner;
    }
    case 'union': {
      const options = (def.options as z.ZodType[])
        .map(arbitraryOf)
        .filter((a): a is fc.Arbitrary<unknown> => a !== null);
      return options.length > 0 ? fc.oneof(...options) : null;
    }
    case 'pipe': {
      // zDigits and friends: a custom check on the way in; generate the checked number and send it as digits.
      const inner = arbitraryOf(def.in as z.ZodType);
      if (inner) return inner;
      const out = arbitraryOf(def.out as z.ZodType);
      return out ? out.map((v) => (typeof v === 'number' ? String(v) : v)) : null;
    }
    case 'transform':
    case 'custom':
      return null;
    case 'array': {
      const item = arbitraryOf(def.element as z.ZodType);
      if (!item) return null;
      const checks = checksOf(def);
      const min = checks.find((c) => c.check === 'min_length')?.minimum ?? 0;
      const max = checks.find((c) => c.check === 'max_length')?.maximum ?? 5;
      return fc.array(item, { minLength: min, maxLength: Math.min(max, min + 5) });
    }
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>;
      const parts: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, child] of Object.entries(shape)) {
        const arbitrary = arbitraryOf(child);
        if (arbitrary) parts[key] = arbitrary;
      }
      return fc.record(parts);
    }
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }), { maxKeys: 3 });
    default:
      return fc.constant(undefined);
  }
}

/** The field names of an object schema (through refinements), for the invalid variants. */
export function fieldsOf(schema: z.ZodType): string[] {
  const def = defOf(schema);
  if (def.type === 'object') return Object.keys(def.shape as object);
  if (def.type === 'pipe') return fieldsOf(def.in as z.ZodType);
  return [];
}

/** Values no field should accept as they are: wrong types, huge and NUL-bearing strings, odd numbers. */
export const HOSTILE_VALUES: unknown[] = [
  null,
  true,
  [],
  [1, 2],
  { nested: { deeper: [1] } },
  '',
  ' ',
  'a\u0000b',
  '\u0007',
  'x'.repeat(100_000),
  '９',
  '-1',
  '1.5',
  '1e309',
  'NaN',
  'Infinity',
  '0x10',
  '00001',
  '99999999999999999999999',
  -1,
  0,
  1.5,
  -0.000001,
  1e308,
  Number.MAX_SAFE_INTEGER + 2,
  "' OR 1=1 --",
  '../../etc/passwd',
  '<script>alert(1)</script>',
];

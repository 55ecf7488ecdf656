import { z } from 'zod';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment once, at start-up, against a schema whose keys are the variable names.
 * Every problem is reported in one error that names each variable, so an operator fixes them all
 * in one go instead of one restart per variable.
 */
export function loadEnv<S extends z.ZodRawShape>(
  shape: S,
  source: Record<string, string | undefined> = process.env,
): z.infer<z.ZodObject<S>> {
  const schema = z.object(shape);
  // Empty strings count as unset: docker-compose and shells export VAR= for "no value".
  const cleaned: Record<string, string | undefined> = {};
  for (const key of Object.keys(shape)) {
    const value = source[key];
    cleaned[key] = value === '' ? undefined : value;
  }
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(root)';
    const given = cleaned[String(issue.path[0])];
    // A secret's value never reaches a log, even a wrong one.
    const isSecret = (shape[String(issue.path[0])] as z.ZodType | undefined)?.description === 'secret';
    const shown =
      given === undefined ? 'missing' : isSecret ? 'value hidden' : `got ${JSON.stringify(given)}`;
    return `${name}: ${issue.message} (${shown})`;
  });
  throw new ConfigError(problems);
}

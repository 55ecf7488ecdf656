import { z } from 'zod';
import { changeTypes, priorities, projectStatuses, projectTypes } from './project.repository';

export const projectBody = z.object({
  id: z.number(),
  project_code: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  project_type: z.enum(projectTypes),
  status: z.enum(projectStatuses),
  priority: z.enum(priorities),
  version: z.string(),
  branch_name: z.string(),
  assigned_to: z.string().nullable(),
  target_date: z.string().nullable(),
  ticket_number: z.string().nullable(),
  ticket_id: z.number().nullable(),
  tenant: z.string().nullable(),
  created_by: z.string().nullable(),
  deployed_at: z.date().nullable(),
  created_at: z.date(),
  updated_at: z.date(),
});

/**
 * A path inside the repository: relative, '/'-separated, no '.'/'..' segments, no '.git'
 * component, no control characters. Anything else could escape or corrupt the tree.
 */
export const filePath = z
  .string()
  .min(1)
  .max(500)
  .refine(
    (p) =>
      !p.startsWith('/') &&
      !p.endsWith('/') &&
      // eslint-disable-next-line no-control-regex
      !/[\u0000-\u001f\u007f\\]/.test(p) &&
      p.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..' && seg.toLowerCase() !== '.git'),
    'must be a relative path without empty, ".", ".." or ".git" segments',
  );

export const projectId = z.coerce.number().int().positive();

export const createBody = z.object({
  name: z.string().trim().min(1).max(255),
  description: z.string().max(20_000).nullish(),
  project_type: z.enum(projectTypes),
  priority: z.enum(priorities).optional(),
  assigned_to: z.string().trim().max(255).nullish(),
  target_date: z.iso.date().nullish(),
});

export const filesBody = z.object({
  project_id: projectId,
  files: z
    .array(z.object({ file_path: filePath, change_type: z.enum(changeTypes) }))
    .min(1)
    .max(1000),
});

/** Free-form action word; the service itself writes created, files_recorded, committed, rebuild_requested, deployed, rebuild_failed. */
export const changelogBody = z.object({
  project_id: projectId,
  action: z
    .string()
    .regex(/^[a-z][a-z0-9_.-]{0,49}$/, 'a lower-case word (letters, digits, _ . -), at most 50 characters'),
  description: z.string().max(5000).nullish(),
  changed_by: z.string().trim().max(255).nullish(),
});

export const commitBody = z.object({
  project_id: projectId,
  message: z.string().trim().min(1).max(2000),
  files: z
    .array(
      z
        .object({
          file_path: filePath,
          content: z.string().max(1_000_000).optional(),
          content_base64: z.base64().max(1_400_000).optional(),
          delete: z.boolean().optional(),
        })
        .refine(
          (f) =>
            [f.content !== undefined, f.content_base64 !== undefined, f.delete === true].filter(Boolean)
              .length === 1,
          'give exactly one of content, content_base64 or delete: true',
        ),
    )
    .max(500)
    .refine(
      (files) => new Set(files.map((f) => f.file_path)).size === files.length,
      'file paths must be unique',
    )
    .default([]),
});

export const rebuildBody = z.object({
  project_id: projectId,
  tenant: z.string().min(1).max(50),
});

export const changelogEntry = z.object({
  id: z.number(),
  action: z.string(),
  description: z.string().nullable(),
  changed_by: z.string().nullable(),
  created_at: z.date(),
});

export const deploymentBody = z.object({
  id: z.number(),
  environment: z.string().nullable(),
  version: z.string().nullable(),
  commit_sha: z.string().nullable(),
  status: z.enum(['started', 'succeeded', 'failed', 'rolled_back']),
  message: z.string().nullable(),
  log: z.string().nullable(),
  started_by: z.string().nullable(),
  started_at: z.date(),
  finished_at: z.date().nullable(),
  /** The build's exit status; null when it never ran or a signal ended it (then `signal`). */
  exit_code: z.number().nullable(),
  signal: z.string().nullable(),
  timed_out: z.boolean(),
  duration_ms: z.number().nullable(),
  /** The directory of the built output that was kept (relative to the project). */
  output_dir: z.string().nullable(),
  /** This deployment's output is the live preview. */
  preview: z.boolean(),
});

/** In lists: everything but the log, and how long it is. */
export const deploymentSummary = deploymentBody.omit({ log: true }).extend({ log_bytes: z.number() });

export const previewBody = z.object({
  url: z.string(),
  /** The deployment whose build is live, null before the first successful build. */
  deployment_id: z.number().nullable(),
});

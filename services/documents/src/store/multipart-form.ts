import { badRequest, badStringPath, HttpError } from '@aplt/http';
import type { FastifyRequest } from 'fastify';

export interface FormUpload {
  fields: Record<string, string>;
  files: Buffer[];
}

const codeOf = (err: unknown) => (err as { code?: string } | null)?.code;

/**
 * Reads a multipart/form-data body with only the named text fields and up to `maxFiles` files
 * in `fileField`. The part limits themselves are set where @fastify/multipart is registered;
 * here they become the fleet's error bodies: a file over `maxFileBytes` is a 413 naming it, one
 * file too many or an unknown field a 400. File names and part content types are never used.
 */
export async function readForm(
  request: FastifyRequest,
  spec: { fileField: string; maxFiles: number; maxFileBytes: number; fields: string[] },
): Promise<FormUpload> {
  if (!request.isMultipart()) {
    throw new HttpError(
      415,
      'unsupported_media_type',
      `Send multipart/form-data with ${spec.fields.map((f) => `field "${f}"`).join(', ')} and up to ${spec.maxFiles} file(s) in "${spec.fileField}"`,
    );
  }
  const fields: Record<string, string> = {};
  const files: Buffer[] = [];
  try {
    for await (const part of request.parts()) {
      const name = part.fieldname;
      const bad = badStringPath(name, 'field');
      if (bad) throw badRequest('A field name contains a NUL byte or an unpaired surrogate');
      if (part.type === 'file') {
        if (name !== spec.fileField) {
          part.file.resume();
          throw badRequest(`Unexpected file field "${name}"; files go in "${spec.fileField}"`);
        }
        try {
          files.push(await part.toBuffer());
        } catch (err) {
          if (codeOf(err) === 'FST_REQ_FILE_TOO_LARGE') {
            throw new HttpError(
              413,
              'payload_too_large',
              `${spec.fileField}[${files.length}] is larger than ${spec.maxFileBytes} bytes`,
              { limit_bytes: spec.maxFileBytes, field: `${spec.fileField}[${files.length}]` },
            );
          }
          throw err;
        }
      } else {
        if (!spec.fields.includes(name)) throw badRequest(`Unexpected field "${name}"`);
        if (name in fields) throw badRequest(`Field "${name}" was sent twice`);
        if (part.valueTruncated) {
          throw new HttpError(413, 'payload_too_large', `Field "${name}" is too long`, { field: name });
        }
        fields[name] = String(part.value);
      }
    }
  } catch (err) {
    switch (codeOf(err)) {
      case 'FST_FILES_LIMIT':
        throw badRequest(`At most ${spec.maxFiles} file(s) in "${spec.fileField}"`, {
          issues: [{ path: spec.fileField, message: `at most ${spec.maxFiles}` }],
        });
      case 'FST_PARTS_LIMIT':
      case 'FST_FIELDS_LIMIT':
      case 'FST_PROTO_VIOLATION':
        throw badRequest('The form has too many or unexpected parts');
      default:
        // Only parsing happens in the loop above: anything else that failed there is a body the
        // multipart parser could not read (a broken boundary, a body cut short), the client's fault.
        if (err instanceof HttpError) throw err;
        if (((err as { statusCode?: number }).statusCode ?? 500) < 500) throw err;
        throw badRequest('The multipart body could not be read');
    }
  }
  return { fields, files };
}

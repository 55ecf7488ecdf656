'use client';

import type { ChangeEvent } from 'react';

/**
 * A JPEG/PNG file input that refuses too many or too large files before the form is sent, so a
 * 40 MB picture never travels (the API checks the content again).
 */
export function ImageFileInput({
  name,
  multiple,
  maxFiles,
  maxBytes,
  messages,
  label,
}: {
  name: string;
  multiple?: boolean;
  maxFiles: number;
  maxBytes: number;
  label: string;
  messages: { tooMany: string; tooLarge: string; type: string };
}) {
  function check(e: ChangeEvent<HTMLInputElement>) {
    const input = e.currentTarget;
    const files = [...(input.files ?? [])];
    let problem = '';
    if (files.length > maxFiles) problem = messages.tooMany;
    for (const f of files) {
      if (problem) break;
      if (!['image/jpeg', 'image/png'].includes(f.type)) problem = messages.type.replace('{name}', f.name);
      else if (f.size > maxBytes) problem = messages.tooLarge.replace('{name}', f.name);
    }
    input.setCustomValidity(problem);
    input.reportValidity();
  }
  return (
    <label className="field">
      <span>{label}</span>
      <input
        type="file"
        name={name}
        accept="image/jpeg,image/png"
        multiple={multiple}
        onChange={check}
        data-testid={`file-${name}`}
      />
    </label>
  );
}

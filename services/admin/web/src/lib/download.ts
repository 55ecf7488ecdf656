import { sdk } from './sdk';

/**
 * Downloads a file from an authenticated route (PDF, .eml, UBL, CSV): the SDK adds the token,
 * the answer becomes a blob the browser saves under `filename`. Failures throw the SDK's
 * FetchError with the API's message, like every other call.
 */
export async function downloadFile(path: string, filename: string, accept = '*/*'): Promise<void> {
  const url = await fileUrl(path, accept);
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = filename;
    document.body.append(a);
    a.click();
    a.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

/** An object URL of an authenticated file, e.g. for a PDF preview in an iframe; revoke it when done. */
export async function fileUrl(path: string, accept = '*/*'): Promise<string> {
  const res = await sdk.client.fetch<Response>(path, { headers: { accept } });
  return URL.createObjectURL(await res.blob());
}

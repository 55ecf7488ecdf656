/**
 * The language-model seam. With AI_BASE_URL/AI_API_KEY/AI_MODEL an OpenAI-compatible
 * chat-completions API answers; otherwise (or when it fails) the built-in deterministic engine
 * does, so every AI endpoint stays useful offline.
 */
export interface AiProvider {
  readonly name: string;
  /** Asks for a JSON object; undefined when the provider has no answer (caller falls back). */
  completeJson(system: string, user: string): Promise<Record<string, unknown> | undefined>;
  /** Free text; undefined when the provider has no answer. */
  completeText(system: string, user: string): Promise<string | undefined>;
}

export const builtinProvider: AiProvider = {
  name: 'builtin',
  completeJson: async () => undefined,
  completeText: async () => undefined,
};

export function openAiCompatibleProvider(opts: {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
}): AiProvider {
  const call = async (system: string, user: string, json: boolean): Promise<string | undefined> => {
    const res = await fetch(`${opts.baseUrl.replace(/\/$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${opts.apiKey}` },
      body: JSON.stringify({
        model: opts.model,
        temperature: 0,
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
        ...(json ? { response_format: { type: 'json_object' } } : {}),
      }),
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { choices?: Array<{ message?: { content?: string } }> };
    return body.choices?.[0]?.message?.content ?? undefined;
  };
  return {
    name: `openai:${opts.model}`,
    async completeJson(system, user) {
      try {
        const text = await call(system, user, true);
        if (!text) return undefined;
        const parsed = JSON.parse(text.replace(/^```(json)?|```$/g, '').trim());
        return parsed && typeof parsed === 'object' ? parsed : undefined;
      } catch {
        return undefined;
      }
    },
    async completeText(system, user) {
      try {
        return await call(system, user, false);
      } catch {
        return undefined;
      }
    },
  };
}

export function aiProviderFromConfig(c: {
  AI_BASE_URL?: string | undefined;
  AI_API_KEY?: string | undefined;
  AI_MODEL?: string | undefined;
  AI_TIMEOUT_MS: number;
}): AiProvider {
  if (c.AI_BASE_URL && c.AI_API_KEY && c.AI_MODEL) {
    return openAiCompatibleProvider({
      baseUrl: c.AI_BASE_URL,
      apiKey: c.AI_API_KEY,
      model: c.AI_MODEL,
      timeoutMs: c.AI_TIMEOUT_MS,
    });
  }
  return builtinProvider;
}

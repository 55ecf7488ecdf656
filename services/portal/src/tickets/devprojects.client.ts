import { ServiceEndpoints } from '@aplt/config';
import { HttpError } from '@aplt/http';

export interface CreatedDevProject {
  dev_project: {
    id: number;
    project_code: string;
    branch_name: string;
    project_type: string;
    priority: string;
    status: string;
    version: string;
    ticket_id: number | null;
    ticket_number: string | null;
  };
  created: boolean;
  base_url: string;
}

/**
 * The devprojects service's internal API (never routed by the proxy), called with the fleet's
 * service token `SERVICE_TOKEN` as `Authorization: Bearer`.
 */
export class DevProjectsClient {
  private readonly endpoints: ServiceEndpoints;

  /** `baseUrl`: the service, or its replicas comma-separated (tried in turn; see ServiceEndpoints). */
  constructor(
    baseUrl: string,
    private readonly token: string,
  ) {
    this.endpoints = new ServiceEndpoints(baseUrl);
  }

  async createFromTicket(input: {
    tenant: string;
    ticket_id: number;
    ticket_number: string;
    name: string;
    description: string;
    project_type: string;
    priority: string;
    created_by: string;
  }): Promise<CreatedDevProject> {
    let res: Response;
    try {
      // Safe to repeat on another replica: one ticket makes one dev project (`created: false`).
      res = await this.endpoints.fetch('/internal/dev-projects/from-ticket', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.token}` },
        body: JSON.stringify(input),
        timeoutMs: 15_000,
      });
    } catch (err) {
      throw new HttpError(502, 'unavailable', 'The dev projects service cannot be reached', {
        cause: (err as Error).message,
      });
    }
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (res.status === 422)
      throw new HttpError(422, 'unprocessable', String(body.message ?? 'Dev project refused'), {
        upstream: body,
      });
    if (!res.ok)
      throw new HttpError(502, 'unexpected_state', `The dev projects service answered ${res.status}`, {
        upstream_status: res.status,
      });
    return body as unknown as CreatedDevProject;
  }
}

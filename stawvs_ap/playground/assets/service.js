// The engine's JSON-RPC 2.0 service, by POST to "rpc" beside the page.

import { t } from "./words.js";

// SERVER_BUSY: every search slot of the server is taken; try again shortly.
export const SERVER_BUSY = -32000;

export class ServiceError extends Error {
  constructor(error) {
    super(error.message);
    this.code = error.code;
    this.data = error.data;
  }
}

let nextId = 1;

// Calls [[method, params], ...] in one request (a JSON-RPC batch); resolves to
// the results in order, or rejects with the first error as a ServiceError.
export async function batch(calls) {
  const requests = calls.map(([method, params]) => ({
    jsonrpc: "2.0",
    id: nextId++,
    method,
    params,
  }));
  let response;
  try {
    response = await fetch("rpc", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(requests),
    });
  } catch {
    throw new ServiceError({ code: 0, message: t("page.error.offline") });
  }
  const answers = await response.json().catch(() => null);
  if (!Array.isArray(answers)) {
    throw new ServiceError(answers?.error ?? { code: response.status, message: t("page.error.server") });
  }
  const byId = new Map(answers.map((a) => [a.id, a]));
  return requests.map((request) => {
    const answer = byId.get(request.id);
    if (!answer) throw new ServiceError({ code: 0, message: t("page.error.server") });
    if (answer.error) throw new ServiceError(answer.error);
    return answer.result;
  });
}

export async function rpc(method, params = {}) {
  return (await batch([[method, params]]))[0];
}

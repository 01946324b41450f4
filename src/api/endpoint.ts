/**
 * An endpoint as the key of what the browser keeps for it (the basket id, the waiting room's
 * queue id and pass): its absolute address, so `/api` and `https://site.example/api` on that site
 * share one.
 */
export function endpointKey(endpoint: string): string {
  try {
    return new URL(endpoint, typeof location !== 'undefined' ? location.href : 'http://localhost/').href.replace(/\/+$/, '');
  } catch {
    return endpoint;
  }
}

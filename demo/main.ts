// The smallest demo: list the events, through the proxy at /api, with the typed
// client from src/. (The full demo with the widget's elements replaces this.)
import { createApiClient } from '../src/api/client.ts';

async function showEvents(): Promise<void> {
  const status = document.getElementById('status');
  const list = document.getElementById('events');
  const api = createApiClient({ endpoint: '/api' });
  try {
    const { Events } = await api.getEvents();
    for (const event of Events) {
      const item = document.createElement('li');
      item.textContent = event.Name;
      list?.append(item);
    }
    if (status) status.textContent = `${Events.length} events on sale.`;
  } catch {
    if (status) status.textContent = 'The events could not be loaded. Is the proxy running?';
  }
}

void showEvents();

import { defineElement } from '../../define.ts';
import { EventList } from './event-list.component.ts';

export { EventList };
defineElement('event-list', EventList);

declare global {
  interface HTMLElementTagNameMap {
    'event-list': EventList;
  }
}

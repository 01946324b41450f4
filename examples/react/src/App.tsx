/**
 * An affiliate's React app selling one theatre's tickets with the Stagedoor
 * elements. The app's router owns the URL, and the URL owns the selection:
 *
 *   /                                         what is on            <event-list>
 *   /events/:eventId                          one show, its dates   <event-list event-id> + <performance-calendar>
 *   /events/:eventId/performances/:id         seats                 <seat-picker>
 *   /checkout                                 basket and checkout   <checkout-form>
 *   /booked                                   back from payment     <booking-confirmation>
 *
 * A step the visitor takes in an element (its cancelable `booking-navigate`
 * event) becomes the router's navigation: the app cancels it, so the widget
 * leaves the address and the history to the router; a navigation (a link, Back,
 * a shared or reloaded URL) becomes the elements' properties. One <booking-provider> around everything gives the elements one
 * basket and the return address after payment, and the app hears every
 * `booking-*` event bubbling up to it, typed.
 */
import { useState } from 'react';
import { Link, Route, Routes, useLocation, useNavigate, useParams } from 'react-router';
import type { BookingEvent } from 'stagedoor';

/** A route parameter as a service id, or null when it is not one. */
function idParam(value: string | undefined): number | null {
  return value !== undefined && /^\d{1,10}$/.test(value) ? Number(value) : null;
}

/** The app's route for a step of the booking flow. */
function routeOf({ step, eventId, performanceId }: BookingEvent<'booking-navigate'>['detail']): string {
  if (step === 'seats') return `/events/${eventId}/performances/${performanceId}`;
  return eventId === null ? '/' : `/events/${eventId}`;
}

function WhatsOn() {
  return (
    <section aria-labelledby="whats-on">
      <h1 id="whats-on">What's on</h1>
      <event-list showTypeFilter />
    </section>
  );
}

function EventPage() {
  const eventId = idParam(useParams().eventId);
  if (eventId === null) return <NotFound />;
  return (
    <>
      <Link to="/">← All shows</Link>
      <event-list eventId={eventId} />
      <h2>Choose a date</h2>
      <performance-calendar eventId={eventId} />
    </>
  );
}

function SeatsPage() {
  const params = useParams();
  const eventId = idParam(params.eventId);
  const performanceId = idParam(params.performanceId);
  const [added, setAdded] = useState(0);
  if (eventId === null || performanceId === null) return <NotFound />;
  return (
    <>
      <Link to={`/events/${eventId}`}>← Other dates</Link>
      <seat-picker
        performanceId={performanceId}
        maxSeats={8}
        onbooking-basket-change={(event) => {
          const item = event.detail.basket?.Items.at(-1);
          if (event.detail.action === 'add' && item) setAdded(item.Tickets.length);
        }}
      />
      {added > 0 && (
        <p className="next" role="status">
          {added} {added === 1 ? 'ticket' : 'tickets'} added. <Link to="/checkout">Go to checkout</Link>
        </p>
      )}
    </>
  );
}

function Booked() {
  const [reference, setReference] = useState<string | null>(null);
  return (
    <>
      {reference && <p className="thanks">Thank you! Keep your booking reference: {reference}</p>}
      <booking-confirmation outcome="success" onbooking-order-completed={(event) => setReference(event.detail.bookingReference)} />
      <Link to="/">Book another show</Link>
    </>
  );
}

function NotFound() {
  return (
    <p>
      There is no such page. <Link to="/">See what's on</Link>
    </p>
  );
}

export function App() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [tickets, setTickets] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const handleBasketChange = (event: BookingEvent<'booking-basket-change'>) => {
    const items = event.detail.basket?.Items ?? [];
    setTickets(items.reduce((count, item) => count + item.Tickets.length, 0));
  };

  return (
    <booking-provider
      endpoint="/api"
      successUrl="/booked"
      onbooking-navigate={(event) => {
        // The router owns the address: the widget pushes nothing, the app goes to the step's route.
        event.preventDefault();
        const route = routeOf(event.detail);
        if (route !== pathname) navigate(route);
      }}
      onbooking-basket-change={handleBasketChange}
      onbooking-expiry={() => setTickets(0)}
      onbooking-order-completed={() => setTickets(0)}
      onbooking-error={(event) => setProblem(event.detail.message)}
    >
      <header className="site">
        <Link to="/" className="brand">
          The Lyric Quarter
        </Link>
        <basket-timer />
        <Link to="/checkout">{tickets ? `Basket (${tickets})` : 'Basket'}</Link>
      </header>
      {problem && (
        <p className="problem" role="status">
          {problem} <button onClick={() => setProblem(null)}>Dismiss</button>
        </p>
      )}
      <main>
        <Routes>
          <Route path="/" element={<WhatsOn />} />
          <Route path="/events/:eventId" element={<EventPage />} />
          <Route path="/events/:eventId/performances/:performanceId" element={<SeatsPage />} />
          <Route path="/checkout" element={<checkout-form />} />
          <Route path="/booked" element={<Booked />} />
          <Route path="*" element={<NotFound />} />
        </Routes>
      </main>
    </booking-provider>
  );
}

<?php
/**
 * The shows as schema.org JSON-LD in the page's HTML, printed by the server in
 * wp_head on a page whose content holds an <event-list> (shortcode or block):
 * a crawler that runs no script finds them too. The same JSON-LD as the
 * widget's list writes (src/markup/event-markup.ts): a TheaterEvent per event
 * (at most 20) over its run, with its Offer and the venue as its Place.
 *
 * The events and venues are read through the proxy the plugin is configured
 * with (its endpoint), with a short timeout, kept in a transient for five
 * minutes. Any failure prints nothing.
 *
 * The same answer of the list of events, as the proxy sent it, is printed for
 * the widget too (the `stagedoor-first-list` block, docs/embedding.md): its
 * first cards show with no request; past the proxy's cache life it is shown
 * and asked for again.
 */

namespace Stagedoor;

defined( 'ABSPATH' ) || exit;

const MARKUP_MAX_EVENTS = 20;
const MARKUP_CACHE_SECONDS = 300;
const MARKUP_TIMEOUT_SECONDS = 3;

add_action( 'wp_head', __NAMESPACE__ . '\\print_event_markup' );
add_action( 'wp_head', __NAMESPACE__ . '\\print_first_list' );

/** The attributes of the first <event-list> in the queried page's content, or null when it has none. */
function page_event_list(): ?array {
	if ( ! is_singular() ) {
		return null;
	}
	$post = get_post();
	if ( ! $post ) {
		return null;
	}
	$content = (string) $post->post_content;
	if ( has_shortcode( $content, 'stagedoor-event-list' ) && preg_match_all( '/' . get_shortcode_regex( array( 'stagedoor-event-list' ) ) . '/', $content, $found, PREG_SET_ORDER ) ) {
		$atts = shortcode_parse_atts( $found[0][3] );
		return is_array( $atts ) ? $atts : array();
	}
	if ( has_block( 'stagedoor/event-list', $post ) ) {
		foreach ( parse_blocks( $content ) as $block ) {
			if ( 'stagedoor/event-list' === $block['blockName'] ) {
				$attrs = is_array( $block['attrs'] ) ? $block['attrs'] : array();
				return array(
					'event-type' => $attrs['eventType'] ?? null,
					'venue-id'   => $attrs['venueId'] ?? null,
					'event-id'   => $attrs['eventId'] ?? null,
				);
			}
		}
		return array();
	}
	return null;
}

/** The proxy's address as the server reaches it: the endpoint setting, a path made absolute on this site. */
function server_endpoint(): string {
	$endpoint = settings()['endpoint'];
	$endpoint = '' !== $endpoint ? $endpoint : '/api';
	return rtrim( 0 === strpos( $endpoint, '/' ) ? home_url( $endpoint ) : $endpoint, '/' );
}

/** GET an operation's JSON through the proxy, cached; null on any failure. */
function service_get( string $path ): ?array {
	$answer = service_answer( $path );
	return null === $answer ? null : $answer['data'];
}

/**
 * GET an operation through the proxy, cached: its JSON decoded (`data`), the body as sent
 * (`body`), when it was fetched (`fetched`, Unix seconds) and the proxy's max-age for it
 * (`max_age`, seconds). Null on any failure.
 */
function service_answer( string $path ): ?array {
	$url = server_endpoint() . $path;
	$key = 'stagedoor_answer_' . md5( $url );
	$cached = get_transient( $key );
	if ( is_array( $cached ) && is_array( $cached['data'] ?? null ) && is_string( $cached['body'] ?? null ) ) {
		return $cached;
	}
	$response = wp_remote_get(
		$url,
		array(
			'timeout' => MARKUP_TIMEOUT_SECONDS,
			'headers' => array( 'Accept' => 'application/json' ),
		)
	);
	if ( is_wp_error( $response ) || 200 !== wp_remote_retrieve_response_code( $response ) ) {
		return null;
	}
	$body = wp_remote_retrieve_body( $response );
	$data = json_decode( $body, true );
	if ( ! is_array( $data ) ) {
		return null;
	}
	$control = (string) wp_remote_retrieve_header( $response, 'cache-control' );
	$answer  = array(
		'data'    => $data,
		'body'    => $body,
		'fetched' => time(),
		'max_age' => preg_match( '/(?:^|,)\s*max-age=(\d+)/i', $control, $age ) ? (int) $age[1] : MARKUP_CACHE_SECONDS,
	);
	set_transient( $key, $answer, MARKUP_CACHE_SECONDS );
	return $answer;
}

/** A service DateTime (venue wall clock, no offset) as ISO 8601 with the zone's offset at that instant. */
function iso_with_offset( $value, string $time_zone ): ?string {
	if ( ! is_string( $value ) || ! preg_match( '/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/', $value, $match ) ) {
		return null;
	}
	try {
		return ( new \DateTimeImmutable( $match[0], new \DateTimeZone( $time_zone ) ) )->format( 'Y-m-d\TH:i:sP' );
	} catch ( \Exception $e ) {
		return null;
	}
}

/** One event over its run as a TheaterEvent, in the widget's order of fields. */
function theater_event( array $event, array $venue, array $context ): ?array {
	$start = iso_with_offset( $event['StartDate'] ?? null, $context['time_zone'] );
	if ( null === $start || ! is_string( $event['Name'] ?? null ) ) {
		return null;
	}
	$address = array(
		'@type'           => 'PostalAddress',
		'streetAddress'   => (string) ( $venue['Address'] ?? '' ),
		'addressLocality' => (string) ( $venue['City'] ?? '' ),
	);
	if ( ! empty( $venue['Postcode'] ) ) {
		$address['postalCode'] = (string) $venue['Postcode'];
	}
	$item = array(
		'@context'  => 'https://schema.org',
		'@type'     => 'TheaterEvent',
		'name'      => $event['Name'],
		'startDate' => $start,
	);
	$end = iso_with_offset( $event['EndDate'] ?? null, $context['time_zone'] );
	if ( null !== $end ) {
		$item['endDate'] = $end;
	}
	$item['eventStatus']         = 'https://schema.org/EventScheduled';
	$item['eventAttendanceMode'] = 'https://schema.org/OfflineEventAttendanceMode';
	$item['location']            = array(
		'@type'   => 'Place',
		'name'    => (string) ( $venue['Name'] ?? '' ),
		'address' => $address,
	);
	$image = is_string( $event['MainImageUrl'] ?? null ) ? $event['MainImageUrl'] : '';
	if ( preg_match( '#^https?://#i', $image ) && false !== filter_var( $image, FILTER_VALIDATE_URL ) ) {
		$item['image'] = array( $image );
	}
	$item['organizer'] = array(
		'@type' => 'Organization',
		'name'  => (string) ( $venue['Name'] ?? '' ),
		'url'   => $context['url'],
	);
	$item['offers']    = array(
		'@type'         => 'Offer',
		'price'         => is_numeric( $event['EventMinimumPrice'] ?? null ) ? 0 + $event['EventMinimumPrice'] : 0,
		'priceCurrency' => $context['currency'],
		'availability'  => 'https://schema.org/InStock',
		'url'           => $context['url'],
	);
	return $item;
}

/** The JSON-LD items of the page's <event-list> (its plain list, one type's, or one venue's). */
function event_markup( array $list ): array {
	$venue_id = isset( $list['venue-id'] ) && preg_match( '/^\d+$/', (string) $list['venue-id'] ) ? (int) $list['venue-id'] : null;
	$type     = isset( $list['event-type'] ) && preg_match( '/^\d+$/', (string) $list['event-type'] ) ? (int) $list['event-type'] : null;
	$answer   = service_get( null !== $venue_id ? "/rest/v2/Venues/{$venue_id}/Events" : '/rest/v2/Events' . ( null === $type ? '' : "?type={$type}" ) );
	if ( ! is_array( $answer['Events'] ?? null ) ) {
		return array();
	}
	$events = $answer['Events'];
	if ( null !== $venue_id && null !== $type ) {
		$events = array_filter( $events, static fn( $e ) => (int) ( $e['EventType'] ?? 0 ) === $type );
	}
	$config  = page_config();
	$context = array(
		'currency'  => is_string( $config['currency'] ?? null ) ? $config['currency'] : 'GBP',
		'time_zone' => is_string( $config['timeZone'] ?? null ) ? $config['timeZone'] : 'Europe/London',
		'url'       => (string) get_permalink(),
	);
	$items = array();
	foreach ( array_slice( array_values( $events ), 0, MARKUP_MAX_EVENTS ) as $event ) {
		$venue = is_array( $event ) && isset( $event['VenueId'] ) ? service_get( '/rest/v2/Venues/' . (int) $event['VenueId'] ) : null;
		if ( ! is_array( $venue['Venue'] ?? null ) ) {
			return array(); // a venue that cannot be read: no markup rather than a Place without an address
		}
		$item = theater_event( $event, $venue['Venue'], $context );
		if ( null !== $item ) {
			$items[] = $item;
		}
	}
	return $items;
}

function print_event_markup(): void {
	$list = page_event_list();
	// One event's detail (event-id) is marked by the widget itself, once it has read the performances.
	if ( null === $list || isset( $list['event-id'] ) ) {
		return;
	}
	$items = event_markup( $list );
	if ( ! $items ) {
		return;
	}
	// JSON_HEX_TAG: no value can close the script element (< and > are written \u003C, \u003E).
	$json = wp_json_encode( 1 === count( $items ) ? $items[0] : $items, JSON_HEX_TAG | JSON_HEX_AMP | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE );
	if ( $json ) {
		printf( '<script type="application/ld+json" data-stagedoor-markup>%s</script>' . "\n", $json ); // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- JSON with < > & escaped.
	}
}

/**
 * The list of events the page's <event-list> asks for first (its plain form: all events, or one
 * event type; the same request as events_request() in assets.php), answered by the proxy: the
 * path, or null when it asks for something else.
 */
function first_list_path( ?array $list ): ?string {
	if ( null === $list || isset( $list['venue-id'] ) || isset( $list['event-id'] ) ) {
		return null;
	}
	$type = isset( $list['event-type'] ) ? (string) $list['event-type'] : null;
	if ( null !== $type && ! preg_match( '/^\d+$/', $type ) ) {
		return null;
	}
	return '/rest/v2/Events' . ( null === $type ? '' : '?type=' . (int) $type );
}

/** Whether this page carries the list's answer (then the footer asks for no preload of it). Called with true once printed. */
function first_list_printed( bool $printed = false ): bool {
	static $done = false;
	$done = $done || $printed;
	return $done;
}

/**
 * The list's answer in the page (the `stagedoor-first-list` block the widget's loader reads before
 * it asks the network): the body the proxy sent, the endpoint the widget asks, when it was fetched
 * and the proxy's cache life. The transient above is the one fetch the JSON-LD reads too.
 */
function print_first_list(): void {
	$list = page_event_list();
	$path = first_list_path( $list );
	$answer = null === $path ? null : service_answer( $path );
	if ( null === $answer || ! is_array( $answer['data']['Events'] ?? null ) ) {
		return;
	}
	$type = isset( $list['event-type'] ) ? sprintf( ' data-event-type="%d"', (int) $list['event-type'] ) : '';
	// The body as the proxy sent it, with every < written \u003c (only inside its strings, where
	// JSON.parse reads it back the same): nothing in it can close the script element.
	printf(
		'<script type="application/json" id="stagedoor-first-list" data-endpoint="%s"%s data-fetched-at="%s" data-max-age="%d">%s</script>' . "\n",
		esc_attr( page_endpoint( page_config() ) ),
		$type, // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- an integer written above.
		esc_attr( gmdate( 'Y-m-d\TH:i:s\Z', (int) $answer['fetched'] ) ),
		(int) $answer['max_age'],
		str_replace( '<', '\u003c', (string) $answer['body'] ) // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- JSON with < escaped.
	);
	first_list_printed( true );
}

<?php
/**
 * The shows as schema.org JSON-LD in the page's HTML, printed by the server in
 * wp_head on a page whose content holds an <event-list> (shortcode or block):
 * a crawler that runs no script finds them too. The same JSON-LD as the
 * widget writes (src/markup/event-markup.ts): in the list, a TheaterEvent per
 * event (at most 20) over its run; on the page opened at a show's address
 * (`?stagedoor-event=1042`, or a later step of it: `1042-dates`,
 * `1042-77001`), that show's detail: a TheaterEvent per performance (the next
 * 10), with its description as the widget's sanitizer leaves it, as text, and
 * its cast. Each with its Offer and the venue as its Place.
 *
 * The events, venues and performances are read through the proxy the plugin is configured
 * with (its endpoint), with a short timeout, kept in a transient for five
 * minutes. Any failure prints nothing.
 *
 * The same answer of the list of events, as the proxy sent it, is printed for
 * the widget too (the `stagedoor-first-list` block, docs/embedding.md): its
 * first cards show with no request; past the proxy's cache life it is shown
 * and asked for again. After the cards printed inside the <event-list>
 * (first-cards.php), else in the footer: never before the first card.
 */

namespace Stagedoor;

defined( 'ABSPATH' ) || exit;

const MARKUP_MAX_EVENTS = 20;
const MARKUP_MAX_PERFORMANCES = 10;
const MARKUP_CACHE_SECONDS = 300;
const MARKUP_TIMEOUT_SECONDS = 3;

add_action( 'wp_head', __NAMESPACE__ . '\\print_event_markup' );
// In the footer, before the page's configuration and hints (assets.php, 5), unless the cards carried it.
add_action( 'wp_footer', __NAMESPACE__ . '\\print_first_list', 4 );

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
					'event-type'  => $attrs['eventType'] ?? null,
					'venue-id'    => $attrs['venueId'] ?? null,
					'event-id'    => $attrs['eventId'] ?? null,
					'event-param' => $attrs['eventParam'] ?? null,
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
	// This request's answers, a failure too: the head's block and the list's cards (first-cards.php) ask once.
	static $asked = array();
	$url = server_endpoint() . $path;
	if ( ! array_key_exists( $url, $asked ) ) {
		$asked[ $url ] = read_service_answer( $url );
	}
	return $asked[ $url ];
}

/** service_answer()'s read: from the transient, else from the proxy. */
function read_service_answer( string $url ): ?array {
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

/**
 * One show, at one date or over its run (`$when`: start, end, price, left), as a TheaterEvent, in
 * the widget's order of fields; `$description`: its text as the widget's sanitizer leaves it.
 */
function theater_event( array $event, array $venue, array $context, array $when, string $description = '' ): ?array {
	$start = iso_with_offset( $when['start'] ?? null, $context['time_zone'] );
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
	$end = iso_with_offset( $when['end'] ?? null, $context['time_zone'] );
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
	if ( '' !== $description ) {
		$item['description'] = $description;
	}
	$image = is_string( $event['MainImageUrl'] ?? null ) ? $event['MainImageUrl'] : '';
	if ( preg_match( '#^https?://#i', $image ) && false !== filter_var( $image, FILTER_VALIDATE_URL ) ) {
		$item['image'] = array( $image );
	}
	$performers = array();
	foreach ( is_array( $event['Cast'] ?? null ) ? $event['Cast'] : array() as $member ) {
		if ( is_array( $member ) && is_scalar( $member['Name'] ?? null ) ) {
			$performers[] = array(
				'@type' => 'Person',
				'name'  => (string) $member['Name'],
			);
		}
	}
	if ( $performers ) {
		$item['performer'] = $performers;
	}
	$item['organizer'] = array(
		'@type' => 'Organization',
		'name'  => (string) ( $venue['Name'] ?? '' ),
		'url'   => $context['url'],
	);
	$item['offers']    = array(
		'@type'         => 'Offer',
		'price'         => is_numeric( $when['price'] ?? null ) ? 0 + $when['price'] : 0,
		'priceCurrency' => $context['currency'],
		'availability'  => ( $when['left'] ?? 0 ) > 0 ? 'https://schema.org/InStock' : 'https://schema.org/SoldOut',
		'url'           => $context['url'],
	);
	return $item;
}

/** Elements whose text the widget's one sanitizer keeps (src/sanitize.ts: KEEP and UNWRAP); any other goes with its content. */
const SANITIZER_TEXT_ELEMENTS = array(
	'a', 'abbr', 'b', 'blockquote', 'br', 'caption', 'cite', 'dd', 'del', 'dl', 'dt', 'em', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i', 'img',
	'ins', 'li', 'mark', 'ol', 'p', 'q', 's', 'small', 'span', 'strong', 'sub', 'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr',
	'u', 'ul', 'address', 'article', 'aside', 'bdi', 'bdo', 'big', 'center', 'code', 'data', 'details', 'dfn', 'div', 'figcaption', 'figure',
	'font', 'footer', 'h1', 'header', 'hgroup', 'kbd', 'main', 'nav', 'nobr', 'pre', 'samp', 'section', 'summary', 'time', 'tt', 'var',
);

/** Elements with no end tag: dropping one drops no content. */
const VOID_ELEMENTS = array( 'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr' );

/**
 * A field of the service's HTML as the text the widget's markup gives it (the `description` part's
 * text once the one sanitizer has rendered it): the text of the elements its policy keeps or
 * unwraps, any other element gone with its content (a script's, a style's, a form's), entities read,
 * white space collapsed as the widget's `/\s+/` does and trimmed. Never markup: it goes into JSON.
 */
function sanitized_text( $html ): string {
	if ( ! is_string( $html ) || '' === $html ) {
		return '';
	}
	// Comments and declarations; raw-text elements whole (their content is never markup); tags; text; a lone "<" as text.
	preg_match_all( '/<!--.*?(?:-->|$)|<(script|style|textarea|title|xmp|iframe|noembed|noframes|noscript)\b.*?(?:<\/\1\s*>|$)|<(\/?)([a-zA-Z][^\s\/>]*)[^>]*>|<[!?\/][^>]*>|[^<]+|</is', $html, $tokens, PREG_SET_ORDER );
	$text    = '';
	$dropped = array(); // the elements open whose content goes, innermost last
	foreach ( $tokens as $token ) {
		$name = strtolower( $token[3] ?? '' );
		if ( '' === $name ) {
			if ( ! $dropped && '' === ( $token[1] ?? '' ) && ! preg_match( '/^<[!?\/a-zA-Z]/', $token[0] ) ) {
				$text .= $token[0];
			}
			continue;
		}
		if ( '/' === $token[2] ) {
			$at = array_search( $name, array_reverse( $dropped, true ), true );
			if ( false !== $at ) {
				array_splice( $dropped, $at );
			}
		} elseif ( ( $dropped || ! in_array( $name, SANITIZER_TEXT_ELEMENTS, true ) ) && ! in_array( $name, VOID_ELEMENTS, true ) ) {
			$dropped[] = $name;
		}
	}
	$text = html_entity_decode( $text, ENT_QUOTES | ENT_HTML5, 'UTF-8' );
	// JavaScript's \s: ASCII white space, no-break and the Unicode spaces, line and paragraph separators, BOM.
	$text = preg_replace( '/[\s\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]+/u', ' ', $text );
	return trim( (string) $text, ' ' );
}

/** The events the page's <event-list> shows (its plain list, one type's, or one venue's), as read for it; null on any failure. */
function listed_events( array $list ): ?array {
	$venue_id = isset( $list['venue-id'] ) && preg_match( '/^\d+$/', (string) $list['venue-id'] ) ? (int) $list['venue-id'] : null;
	$type     = isset( $list['event-type'] ) && preg_match( '/^\d+$/', (string) $list['event-type'] ) ? (int) $list['event-type'] : null;
	$answer   = service_get( null !== $venue_id ? "/rest/v2/Venues/{$venue_id}/Events" : '/rest/v2/Events' . ( null === $type ? '' : "?type={$type}" ) );
	if ( ! is_array( $answer['Events'] ?? null ) ) {
		return null;
	}
	$events = array_values( array_filter( $answer['Events'], 'is_array' ) );
	if ( null !== $venue_id && null !== $type ) {
		$events = array_values( array_filter( $events, static fn( $e ) => (int) ( $e['EventType'] ?? 0 ) === $type ) );
	}
	return $events;
}

/** What every item of the page's markup shares: the currency, the service's time zone and the page's address (`$url`: the Offer's). */
function markup_context( string $url ): array {
	$config = page_config();
	return array(
		'currency'  => is_string( $config['currency'] ?? null ) ? $config['currency'] : 'GBP',
		'time_zone' => is_string( $config['timeZone'] ?? null ) ? $config['timeZone'] : 'Europe/London',
		'url'       => $url,
	);
}

/** The JSON-LD items of the page's <event-list>: each event over its run. */
function event_markup( array $list ): array {
	$events = listed_events( $list );
	if ( null === $events ) {
		return array();
	}
	$context = markup_context( (string) get_permalink() );
	$items   = array();
	foreach ( array_slice( $events, 0, MARKUP_MAX_EVENTS ) as $event ) {
		$venue = isset( $event['VenueId'] ) ? service_get( '/rest/v2/Venues/' . (int) $event['VenueId'] ) : null;
		if ( ! is_array( $venue['Venue'] ?? null ) ) {
			return array(); // a venue that cannot be read: no markup rather than a Place without an address
		}
		$when = array(
			'start' => $event['StartDate'] ?? null,
			'end'   => $event['EndDate'] ?? null,
			'price' => $event['EventMinimumPrice'] ?? null,
			'left'  => 1,
		);
		$item = theater_event( $event, $venue['Venue'], $context, $when );
		if ( null !== $item ) {
			$items[] = $item;
		}
	}
	return $items;
}

/**
 * The query parameter naming the step in the page's address, as the widget reads it: the list's
 * own `event-param`, else the settings' (`eventParam`), else `stagedoor-event`; never `stagedoor`,
 * the payment return's marker (src/state/flow-history.ts refuses it the same way).
 */
function flow_param( array $list ): string {
	$config = page_config();
	$param  = trim( (string) ( $list['event-param'] ?? '' ) );
	$param  = '' !== $param ? $param : ( is_string( $config['eventParam'] ?? null ) ? $config['eventParam'] : '' );
	return '' === $param || 'stagedoor' === $param ? 'stagedoor-event' : $param;
}

/**
 * The first value of a query parameter of this request, as the browser's URLSearchParams reads it
 * (PHP's $_GET renames names holding "." or spaces, and keeps the last of several); null when absent.
 */
function query_value( string $name ): ?string {
	$query = isset( $_SERVER['QUERY_STRING'] ) && is_string( $_SERVER['QUERY_STRING'] ) ? wp_unslash( $_SERVER['QUERY_STRING'] ) : ''; // phpcs:ignore WordPress.Security.ValidatedSanitizedInput.InputNotSanitized -- only compared below.
	foreach ( explode( '&', $query ) as $pair ) {
		$parts = explode( '=', $pair, 2 );
		if ( urldecode( $parts[0] ) === $name ) {
			return urldecode( $parts[1] ?? '' );
		}
	}
	return null;
}

/**
 * The event an address of the page names (`1042`, `1042-dates`, `1042-77001`: the forms
 * src/state/flow-history.ts writes and reads), or null for none, or for any other value.
 */
function addressed_event( array $list ): ?int {
	$value = query_value( flow_param( $list ) );
	return null !== $value && preg_match( '/^([1-9]\d{0,14})(?:-(?:dates|[1-9]\d{0,14}))?$/', $value, $match ) ? (int) $match[1] : null;
}

/**
 * The JSON-LD of the show the page's address names: a TheaterEvent per performance, the next 10,
 * as the widget's detail writes them. Only a show the page's list holds (whose link a crawler
 * found there): any other id prints nothing and asks the proxy nothing, so no address can make
 * this server read, or keep a transient for, an event of its choosing.
 */
function detail_markup( array $list, int $event_id ): array {
	$listed = listed_events( $list );
	if ( null === $listed || ! in_array( $event_id, array_map( static fn( $e ) => (int) ( $e['EventId'] ?? 0 ), $listed ), true ) ) {
		return array();
	}
	$event        = service_get( "/rest/v2/Events/{$event_id}" );
	$performances = service_get( "/rest/v2/Events/{$event_id}/Performances" );
	$event        = is_array( $event['Event'] ?? null ) ? $event['Event'] : null;
	$venue        = null !== $event && isset( $event['VenueId'] ) ? service_get( '/rest/v2/Venues/' . (int) $event['VenueId'] ) : null;
	if ( null === $event || ! is_array( $venue['Venue'] ?? null ) || ! is_array( $performances['Performances'] ?? null ) ) {
		return array();
	}
	$performances = array_values( array_filter( $performances['Performances'], static fn( $p ) => is_array( $p ) && is_string( $p['PerformanceDate'] ?? null ) ) );
	usort( $performances, static fn( $a, $b ) => strcmp( $a['PerformanceDate'], $b['PerformanceDate'] ) );
	$context     = markup_context( add_query_arg( rawurlencode( flow_param( $list ) ), $event_id, (string) get_permalink() ) );
	$description = sanitized_text( $event['Description'] ?? null );
	$items       = array();
	foreach ( array_slice( $performances, 0, MARKUP_MAX_PERFORMANCES ) as $performance ) {
		$when = array(
			'start' => $performance['PerformanceDate'],
			'price' => $performance['MinimumTicketPrice'] ?? null,
			'left'  => (int) ( $performance['TotalAvailableTickesCount'] ?? 0 ),
		);
		$item = theater_event( $event, $venue['Venue'], $context, $when, $description );
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
	// The page opened at a show's address shows that show's detail: its markup, as the widget's detail writes it.
	$event_id = addressed_event( $list );
	if ( null !== $event_id || null !== query_value( flow_param( $list ) ) ) {
		$items = null === $event_id ? array() : detail_markup( $list, $event_id );
	} else {
		$items = event_markup( $list );
	}
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
 * The list's answer in the page (the `stagedoor-first-list` block the widget's loader reads when it
 * runs, after the page is parsed, before it asks the network), unless the <event-list>'s first cards
 * carried it already (first_cards: after them, where the first card does not wait for its bytes).
 */
function print_first_list(): void {
	if ( ! first_list_printed() ) {
		$block = first_list_block( page_event_list() );
		if ( '' !== $block ) {
			echo $block . "\n"; // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- escaped in first_list_block().
		}
	}
}

/**
 * The block for the page's list (then marked printed: once a page), or '' when it has none: the
 * body the proxy sent, the endpoint the widget asks, when it was fetched and the proxy's cache
 * life. The transient above is the one fetch the JSON-LD reads too.
 */
function first_list_block( ?array $list ): string {
	$path   = null === $list ? null : first_list_path( $list );
	$answer = null === $path ? null : service_answer( $path );
	if ( null === $answer || ! is_array( $answer['data']['Events'] ?? null ) ) {
		return '';
	}
	first_list_printed( true );
	$type = isset( $list['event-type'] ) ? sprintf( ' data-event-type="%d"', (int) $list['event-type'] ) : '';
	// The body as the proxy sent it, with every < written \u003c (only inside its strings, where
	// JSON.parse reads it back the same): nothing in it can close the script element.
	return sprintf(
		'<script type="application/json" id="stagedoor-first-list" data-endpoint="%s"%s data-fetched-at="%s" data-max-age="%d">%s</script>',
		esc_attr( page_endpoint( page_config() ) ),
		$type,
		esc_attr( gmdate( 'Y-m-d\TH:i:s\Z', (int) $answer['fetched'] ) ),
		(int) $answer['max_age'],
		str_replace( '<', '\u003c', (string) $answer['body'] )
	);
}

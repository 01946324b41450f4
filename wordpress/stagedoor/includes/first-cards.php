<?php
/**
 * The first cards inside the page's <event-list>, printed by the server as the element's
 * declarative shadow root (`<template shadowrootmode="open">`): a visitor sees the shows with the
 * HTML itself, before any script; the element keeps them until its own list is rendered, then
 * puts its own in their place (docs/embedding.md, "The first cards in the page itself").
 *
 * The source of truth for this markup is src/server/first-cards.ts (firstCardsTemplate, what
 * `stagedoor first-list --cards` prints), itself the element's own cards (event-list.component.ts
 * renderCard, event-facts.ts). This is a port of it: the same elements, parts, attributes and
 * order, byte for byte but for htmlspecialchars' `&#039;` for an apostrophe
 * (test/e2e/wordpress.test.ts compares the two on the same answer). The styles and the words in
 * every language are not written here: the build writes them from firstCardsKit() into
 * first-cards.json beside this plugin's elements.json. A change to the cards is made there, then here.
 *
 * Printed only for the list whose answer the page carries (markup.php first_list_block: the list
 * in its plain form, all events or one type, read once, kept in its transient; the block follows
 * the cards printed in the page's body, else it is in the footer), and not
 * on the page opened at a show (`?stagedoor-event=…`) or back from the payment page (`?stagedoor=…`),
 * where the element opens a show at once, nor with a type filter (`show-type-filter`). Prices are
 * formatted with PHP's intl extension (NumberFormatter) as the widget formats them; without it, in
 * a plain form (`€12.50`), which the element writes again in the visitor's format as it takes over.
 */

namespace Stagedoor;

defined( 'ABSPATH' ) || exit;

/*
 * The content filters that run after shortcodes and blocks are rendered (convert_smilies turning a
 * `:)` in a show's tag line into an image, wptexturize curling its quotes, wp_filter_content_tags)
 * must not touch the cards: rendered inside one of them, the cards are left as a marker (an HTML
 * comment, which those filters skip) and put in place by this plugin's own filter at the very end.
 */
const FIRST_CARDS_FILTERS = array( 'the_content', 'widget_text_content', 'widget_block_content' );
const FIRST_CARDS_MARKER  = '<!--stagedoor-first-cards-';

/** The cards left as markers in this request (marker => cards); with both arguments, one more. */
function first_cards_kept( ?string $marker = null, ?string $cards = null ): array {
	static $kept = array();
	if ( null !== $marker && null !== $cards ) {
		$kept[ $marker ] = $cards;
	}
	return $kept;
}

/** The cards as printed where they are rendered: a marker inside a content filter, else themselves. */
function first_cards_in_place( string $cards ): string {
	foreach ( FIRST_CARDS_FILTERS as $filter ) {
		if ( '' !== $cards && doing_filter( $filter ) ) {
			$marker = FIRST_CARDS_MARKER . md5( $cards ) . '-->';
			first_cards_kept( $marker, $cards );
			return $marker;
		}
	}
	return $cards;
}

foreach ( FIRST_CARDS_FILTERS as $first_cards_filter ) {
	add_filter(
		$first_cards_filter,
		static function ( $content ) {
			return is_string( $content ) && false !== strpos( $content, FIRST_CARDS_MARKER ) ? strtr( $content, first_cards_kept() ) : $content;
		},
		PHP_INT_MAX
	);
}

/** The build's styles and words of the cards (first-cards.json), or null when it cannot be read. */
function first_cards_kit(): ?array {
	static $kit = false;
	if ( false !== $kit ) {
		return $kit;
	}
	$file = dirname( PLUGIN_FILE ) . '/first-cards.json';
	// phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a file of this plugin.
	$json = is_readable( $file ) ? file_get_contents( $file ) : false;
	$read = false !== $json ? json_decode( $json, true ) : null;
	$kit  = is_array( $read ) && is_string( $read['styles'] ?? null ) && is_array( $read['texts']['en'] ?? null ) ? $read : null;
	return $kit;
}

/** A BCP 47 tag in canonical case (`de_at` → `de-AT`), or null when it is not one (src/i18n/locale.ts canonicalTag, as far as PHP can). */
function canonical_tag( string $requested ): ?string {
	$raw = str_replace( '_', '-', trim( $requested ) );
	if ( ! preg_match( '/^[a-zA-Z]{2,8}(?:-[a-zA-Z0-9]{1,8})*$/', $raw ) ) {
		return null;
	}
	$parts = explode( '-', $raw );
	foreach ( $parts as $i => $part ) {
		if ( $i > 0 && 2 === strlen( $part ) && ctype_alpha( $part ) ) {
			$parts[ $i ] = strtoupper( $part );
		} elseif ( $i > 0 && 4 === strlen( $part ) && ctype_alpha( $part ) ) {
			$parts[ $i ] = ucfirst( strtolower( $part ) );
		} else {
			$parts[ $i ] = strtolower( $part );
		}
	}
	return implode( '-', $parts );
}

/**
 * The language whose words a page's language gets, and the locale money is formatted in
 * (src/i18n/locale.ts textLocaleFor and servedLocale): its own, else by language (`de-AT` → `de`,
 * Norwegian → `nb`), else English; British English for a language we have no words for.
 *
 * @return array{0: string, 1: string} the words' language (a key of the kit's texts), the locale.
 */
function card_languages( string $requested, array $texts ): array {
	$tag = canonical_tag( $requested );
	if ( null === $tag ) {
		return array( 'en', 'en-GB' );
	}
	$language = explode( '-', $tag )[0];
	$exact    = strtolower( $tag );
	if ( isset( $texts[ $exact ] ) ) {
		$text = $exact;
	} elseif ( isset( $texts[ $language ] ) ) {
		$text = $language;
	} else {
		$text = in_array( $language, array( 'no', 'nn' ), true ) && isset( $texts['nb'] ) ? 'nb' : 'en';
	}
	return array( $text, 'en' === $text && 'en' !== $language ? 'en-GB' : $tag );
}

/**
 * An amount in the currency, as the widget writes it (Intl.NumberFormat): with PHP's intl
 * extension the same; without it a plain `£12.50` (the element writes its own on upgrade).
 */
function card_money( float $amount, string $currency, string $locale ): string {
	if ( class_exists( 'NumberFormatter' ) ) {
		$formatter = new \NumberFormatter( $locale, \NumberFormatter::CURRENCY );
		$text      = $formatter->formatCurrency( $amount, $currency );
		if ( is_string( $text ) && '' !== $text ) {
			return $text;
		}
	}
	$symbols = array(
		'GBP' => '£',
		'EUR' => '€',
		'USD' => '$',
	);
	$number  = number_format( $amount, 2, '.', ',' );
	return isset( $symbols[ $currency ] ) ? $symbols[ $currency ] . $number : $currency . "\u{a0}" . $number;
}

/**
 * Text or an attribute value written so the browser reads back exactly this text (as first-cards.ts
 * escapes it): unlike esc_html/esc_attr, an `&amp;` or `&#x6A;` already in it is written again, not
 * kept as a character reference, so what a check below saw is what the browser sees.
 */
function card_escape( string $text ): string {
	return htmlspecialchars( $text, ENT_QUOTES | ENT_SUBSTITUTE, 'UTF-8', true );
}

/** A pattern's `{0}`, `{1}` replaced by the values, in one pass (src/server/first-cards.ts fill). */
function card_words( string $pattern, string ...$values ): string {
	return (string) preg_replace_callback(
		'/\{(\d)\}/',
		static function ( array $m ) use ( $values ): string {
			return $values[ (int) $m[1] ] ?? $m[0];
		},
		$pattern
	);
}

/**
 * An image address from the service, if it is absolute http(s) (src/safe-url.ts), and written as
 * the browser's URL parser writes it back, so the cards show what the element shows. PHP has no
 * such parser: an address it might write differently (upper case, default port, dot segments,
 * characters it would encode, a host it reads as a number) is left out, as an unsafe one is.
 */
function card_image_url( $url ): ?string {
	if ( ! is_string( $url ) ) {
		return null;
	}
	$value = str_replace( array( "\t", "\n", "\r" ), '', trim( $url, "\x00..\x20" ) );
	if ( ! preg_match( '#^(https?://[a-z0-9-]+(?:\.[a-z0-9-]+)*\.?)(?::([1-9]\d{0,4}))?(/[A-Za-z0-9\-._~!$&()*+,;=:@%/?\#\[\]]*)$#i', $value, $m ) ) {
		return null;
	}
	// The scheme and host in lower case, as the parser writes them.
	$value = strtolower( $m[1] ) . substr( $value, strlen( $m[1] ) );
	list( , $host, $port, $rest ) = $m;
	$host = strtolower( substr( $host, strpos( $host, '//' ) + 2 ) );
	$last = (string) strrchr( '.' . rtrim( $host, '.' ), '.' );
	if ( preg_match( '/^\.(?:0x[0-9a-f]*|\d+)$/', $last ) && ! preg_match( '/^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/', $host ) ) {
		return null;
	}
	$path = explode( '?', explode( '#', $rest, 2 )[0], 2 )[0];
	if ( in_array( $port, array( '80', '443' ), true ) || preg_match( '#/\.\.?(?:/|$)|%2e|\\\\#i', $path ) || false === filter_var( $value, FILTER_VALIDATE_URL ) ) {
		return null;
	}
	return $value;
}

/** The service's images by width, narrowest first (event-facts.ts responsiveImages). */
function card_images( $images ): array {
	$by_width = array();
	foreach ( is_array( $images ) ? $images : array() as $image ) {
		$url   = is_array( $image ) ? card_image_url( $image['Url'] ?? null ) : null;
		$width = is_numeric( $image['Width'] ?? null ) ? (int) floor( (float) $image['Width'] ) : 0;
		if ( null === $url || $width <= 0 || isset( $by_width[ $width ] ) ) {
			continue;
		}
		$by_width[ $width ] = array(
			'url'    => str_replace( ',', '%2C', $url ),
			'width'  => $width,
			'height' => is_numeric( $image['Height'] ?? null ) ? (int) floor( (float) $image['Height'] ) : 0,
		);
	}
	ksort( $by_width );
	return array_values( $by_width );
}

/**
 * This page's address naming the event in its query (`name=id`, as URLSearchParams.set writes it:
 * the first of that name replaced, any other dropped, the query written form-encoded).
 */
function card_page_link( string $page_url, string $param, int $event_id ): string {
	$encode = static function ( string $text ): string {
		return str_replace( '%2A', '*', urlencode( $text ) ); // application/x-www-form-urlencoded, as URLSearchParams writes it
	};
	$parts = explode( '?', explode( '#', $page_url, 2 )[0], 2 );
	$pairs = array();
	$set   = false;
	foreach ( isset( $parts[1] ) ? explode( '&', $parts[1] ) : array() as $pair ) {
		if ( '' === $pair ) {
			continue;
		}
		$name_value = explode( '=', $pair, 2 );
		$name       = urldecode( $name_value[0] );
		$value      = urldecode( $name_value[1] ?? '' );
		if ( $name === $param ) {
			if ( $set ) {
				continue;
			}
			$value = (string) $event_id;
			$set   = true;
		}
		$pairs[] = $encode( $name ) . '=' . $encode( $value );
	}
	if ( ! $set ) {
		$pairs[] = $encode( $param ) . '=' . $event_id;
	}
	return $parts[0] . '?' . implode( '&', $pairs );
}

/**
 * A card's link (the element's cardHref): the host's show page when the pattern gives a web
 * address, else this page naming the event. The rule of src/safe-url.ts on the address as the
 * browser's URL parser reads it (C0 controls and spaces at either end and tabs and line breaks
 * anywhere dropped): a scheme of its own only if it is http or https; without one, a web address
 * on this http(s) page. Written with card_escape, so the browser reads this very text.
 */
function card_href( int $event_id, array $links ): string {
	$pattern = $links['event_href'];
	if ( '' !== $pattern && false !== strpos( $pattern, '{EventId}' ) ) {
		$href = str_replace( '{EventId}', (string) $event_id, $pattern );
		$read = str_replace( array( "\t", "\n", "\r" ), '', trim( $href, "\x00..\x20" ) );
		if ( ! preg_match( '/^[a-zA-Z][a-zA-Z0-9+.\-]*:/', $read ) || preg_match( '#^https?:[/\\\\]*[^/\\\\\s]#i', $read ) ) {
			return $href;
		}
	}
	return card_page_link( $links['page_url'], $links['param'], $event_id );
}

/** JavaScript's truthiness of a service value that the element writes only when present. */
function card_present( $value ): bool {
	return is_string( $value ) ? '' !== $value : ( ( is_int( $value ) || is_float( $value ) ) && 0.0 !== (float) $value );
}

/** A number from the service, as the element compares it (anything else is 0). */
function card_number( $value ): float {
	return is_int( $value ) || is_float( $value ) ? (float) $value : 0.0;
}

/** One card (first-cards.ts, the map over the events). */
function first_card( array $event, array $words, callable $money, array $links ): string {
	$name     = is_scalar( $event['Name'] ?? null ) ? (string) $event['Name'] : '';
	$images   = card_images( $event['Images'] ?? null );
	$fallback = card_image_url( $event['SmallImageUrl'] ?? null ) ?? card_image_url( $event['MainImageUrl'] ?? null ) ?? ( $images[0]['url'] ?? null );
	$image    = '';
	if ( null !== $fallback ) {
		$srcset = implode(
			', ',
			array_map(
				static function ( array $i ): string {
					return $i['url'] . ' ' . $i['width'] . 'w';
				},
				$images
			)
		);
		$image  = '<img part="card-image" src="' . card_escape( $fallback ) . '"'
			. ( '' !== $srcset ? ' srcset="' . card_escape( $srcset ) . '" sizes="(max-width: 40rem) 100vw, 22rem"' : '' )
			. ( $images ? ' width="' . (int) $images[0]['width'] . '" height="' . (int) $images[0]['height'] . '"' : '' )
			. ' loading="lazy" decoding="async" alt="' . card_escape( $name ) . '">';
	}
	$current = card_number( $event['CurrentPrice'] ?? null );
	$offer   = card_number( $event['OfferPrice'] ?? null );
	$from    = card_number( $event['EventMinimumPrice'] ?? null ) > 0 ? card_number( $event['EventMinimumPrice'] ?? null ) : $current;
	$reduced = $offer > 0 && $offer < $current;
	$label   = card_present( $event['OfferLabel'] ?? null ) ? (string) $event['OfferLabel'] : '';
	$age     = $event['AgeRating'] ?? null;
	$age     = ( is_int( $age ) || is_float( $age ) ) && $age > 0 ? $age : null;
	$running = $event['RunningTime'] ?? null;
	$facts   = '';
	if ( card_present( $running ) ) {
		$facts .= '<p part="running-time" class="meta">' . card_escape( $words['runningTime'] ) . ' ' . card_escape( (string) $running ) . '</p>';
	}
	if ( $from > 0 ) {
		$facts .= '<p part="price" class="price">' . card_escape( card_words( $words['from'], $money( $from ) ) ) . '</p>';
	}
	if ( $reduced || '' !== $label ) {
		$facts .= '<p part="offer" class="offer">' . ( '' !== $label ? '<span class="badge">' . card_escape( $label ) . '</span> ' : '' )
			. ( $reduced ? card_escape( card_words( $words['offer'], $money( $offer ), $money( $current ) ) ) : '' ) . '</p>';
	}
	if ( null !== $age ) {
		$facts .= '<p part="age-rating" class="meta">' . card_escape( card_words( $words['age'], (string) $age ) ) . '</p>';
	}
	$event_id = (int) ( $event['EventId'] ?? 0 );
	$tag_line = card_present( $event['TagLine'] ?? null ) ? '<p part="tag-line" class="tag-line">' . card_escape( (string) $event['TagLine'] ) . '</p>' : '';
	return '<li part="card" class="card"><div part="card-media" class="media">' . $image . '</div><div class="body">'
		. '<h3 part="card-heading" class="name"><a part="card-button" class="card-button" href="' . card_escape( card_href( $event_id, $links ) ) . '"'
		. ' data-event-id="' . $event_id . '">' . card_escape( $name ) . '</a></h3>'
		. $tag_line . $facts . '</div></li>';
}

/**
 * Whether what is rendered now goes into the page's body: the head is out. A plugin that runs the
 * post's content in wp_head (for a description or a reading time) and drops it must not take the
 * list's block with it: the footer prints it then.
 */
function in_page_body(): bool {
	return did_action( 'wp_head' ) > 0 && ! doing_action( 'wp_head' );
}

/**
 * The cards for an <event-list> with these (checked) attributes, to print as its first child,
 * followed by the list's block (once a page; markup.php prints it in the footer where no cards
 * are: here the first card does not wait for its bytes); '' when it gets none: not the list whose
 * answer the page carries, a page opened at a show, no answer or no events, or no first-cards.json.
 */
function first_cards( array $list ): string {
	$path = first_list_path( $list );
	// Not where the element would not show this list first: a page opened at a show, or back from
	// the payment page (`?stagedoor=…`, where the show chosen before comes back); nor above a type
	// filter, which the element adds above the cards (they would move down as it takes over).
	if ( null === $path || first_list_path( page_event_list() ) !== $path || null !== query_value( flow_param( $list ) )
		|| null !== query_value( 'stagedoor' ) || ! empty( $list['show-type-filter'] ) ) {
		return '';
	}
	$kit    = first_cards_kit();
	$answer = null === $kit ? null : service_answer( $path );
	$events = is_array( $answer['data']['Events'] ?? null ) ? array_values( array_filter( $answer['data']['Events'], 'is_array' ) ) : array();
	if ( ! $events ) {
		return '';
	}
	$config = page_config();
	$lang   = is_string( $config['locale'] ?? null ) && '' !== $config['locale'] ? $config['locale'] : (string) get_bloginfo( 'language' );
	list( $text, $locale ) = card_languages( $lang, $kit['texts'] );
	$words    = array_merge( $kit['texts']['en'], is_array( $kit['texts'][ $text ] ?? null ) ? $kit['texts'][ $text ] : array() );
	$currency = is_string( $config['currency'] ?? null ) && '' !== $config['currency'] ? strtoupper( $config['currency'] ) : 'GBP';
	$money    = static function ( float $amount ) use ( $currency, $locale ): string {
		return card_money( $amount, $currency, $locale );
	};
	$href     = isset( $list['event-href'] ) && is_string( $list['event-href'] ) ? $list['event-href'] : ( is_string( $config['eventHref'] ?? null ) ? $config['eventHref'] : '' );
	$links    = array(
		'event_href' => $href,
		'param'      => flow_param( $list ),
		'page_url'   => (string) get_permalink(),
	);
	$cards    = '';
	foreach ( $events as $event ) {
		$cards .= first_card( $event, $words, $money, $links );
	}
	// The build's styles hold no "<" (first-cards.ts writes it \3c); replaced again, so nothing can close the style element.
	$styles = str_replace( '<', '\\3c ', $kit['styles'] );
	return first_cards_in_place(
		'<template shadowrootmode="open"><style>' . $styles . '</style>'
		. '<div part="base"><ul part="list" class="cards" aria-label="' . card_escape( $words['shows'] ) . '">' . $cards . '</ul></div></template>'
		. ( first_list_printed() || ! in_page_body() ? '' : first_list_block( page_event_list() ) )
	);
}

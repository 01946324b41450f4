<?php
/**
 * The widget on the page: the bundle's entry (assets/stagedoor.js, an ES
 * module that fetches whatever else it needs from beside itself) and the
 * page-level configuration block, both only on a page that shows an element
 * (a shortcode or block in the content, a widget area, a template part).
 */

namespace Stagedoor;

defined( 'ABSPATH' ) || exit;

const SCRIPT_HANDLE = 'stagedoor';

add_action(
	'init',
	static function (): void {
		wp_register_script( SCRIPT_HANDLE, plugins_url( 'assets/stagedoor.js', PLUGIN_FILE ), array(), VERSION, true );
	}
);

/**
 * WordPress 6.1 prints classic scripts; the bundle is an ES module. Modules
 * are deferred by nature: the script runs once the whole page is parsed, so
 * elements and the configuration block further down are all there.
 */
add_filter(
	'script_loader_tag',
	static function ( string $tag, string $handle, string $src ): string {
		if ( SCRIPT_HANDLE !== $handle ) {
			return $tag;
		}
		return sprintf( '<script type="module" src="%s" id="stagedoor-js"></script>' . "\n", esc_url( $src ) );
	},
	10,
	3
);

/**
 * The elements rendered on this page so far, in order: tag => the attributes written on its
 * first element. Called with a tag to add one.
 */
function page_elements( string $tag = '', array $attributes = array() ): array {
	static $elements = array();
	if ( '' !== $tag && ! array_key_exists( $tag, $elements ) ) {
		$elements[ $tag ] = $attributes;
	}
	return $elements;
}

/** Called whenever an element is rendered: the script, and the configuration and hints once per page. */
function use_on_this_page( string $tag, array $attributes ): void {
	static $asked = false;
	page_elements( $tag, $attributes );
	if ( $asked ) {
		return;
	}
	$asked = true;
	wp_enqueue_script( SCRIPT_HANDLE );
	if ( did_action( 'wp_footer' ) ) {
		add_action( 'wp_print_footer_scripts', __NAMESPACE__ . '\\print_page_config', 1 );
	} else {
		add_action( 'wp_footer', __NAMESPACE__ . '\\print_page_config', 5 );
	}
}

/**
 * The configuration the elements read (`data-stagedoor-config`): only what
 * the site owner set, so the widget's own defaults apply to the rest; the
 * language follows the page's `lang` (the site's language) unless set.
 * Developers may adjust it with the `stagedoor_page_config` filter.
 */
function page_config(): array {
	$settings = settings();
	$config   = array( 'currency' => '' !== $settings['currency'] ? $settings['currency'] : 'GBP' );
	$keys     = array(
		'endpoint'    => 'endpoint',
		'locale'      => 'locale',
		'time_zone'   => 'timeZone',
		'success_url' => 'successUrl',
		'failure_url' => 'failureUrl',
		'analytics'   => 'analytics',
		'event_href'  => 'eventHref',
		'history'     => 'history',
		'event_param' => 'eventParam',
	);
	foreach ( $keys as $setting => $key ) {
		if ( '' !== $settings[ $setting ] ) {
			$config[ $key ] = $settings[ $setting ];
		}
	}
	$filtered = apply_filters( 'stagedoor_page_config', $config );
	return is_array( $filtered ) ? $filtered : $config;
}

function print_page_config(): void {
	static $printed = false;
	if ( $printed ) {
		return;
	}
	$printed = true;
	$config  = page_config();
	// JSON_HEX_TAG: no value can close the script element (`</script>` becomes \u003C/script\u003E).
	$json = wp_json_encode( $config, JSON_HEX_TAG | JSON_HEX_AMP | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE );
	printf( '<script type="application/json" data-stagedoor-config>%s</script>' . "\n", $json ? $json : '{}' );
	print_preload_hints( $config );
}

/**
 * What the page's elements will fetch, asked for beside the bundle's entry rather than after it
 * has run: on a slow phone network each of those waits is a whole round trip. Printed just before
 * the entry's script tag (both are in the footer; `link` hints may be in the body):
 * - each element's files, from the build's assets/stagedoor-preload.json, as modulepreload (the
 *   entry then finds them loaded or on their way; it imports the same URLs);
 * - the list of events for an <event-list> in its plain form (all events, or one event type), as
 *   the entry itself would ask at once (src/loader.ts), with the credentials the widget's client
 *   uses, so that answer is the one it takes.
 */
function print_preload_hints( array $config ): void {
	$list = preload_list();
	$files = array();
	foreach ( array_keys( page_elements() ) as $tag ) {
		foreach ( isset( $list[ $tag ] ) && is_array( $list[ $tag ] ) ? $list[ $tag ] : array() as $file ) {
			// Only the build's own file names, beside the entry.
			if ( is_string( $file ) && preg_match( '/^stagedoor-[\w.-]+\.js$/', $file ) ) {
				$files[ $file ] = true;
			}
		}
	}
	// A list whose answer the page carries (markup.php, print_first_list) is not asked for at all.
	$events = first_list_printed() ? null : events_request( $config );
	if ( null !== $events ) {
		printf( '<link rel="preload" as="fetch" href="%s" crossorigin>' . "\n", esc_url( $events ) );
	}
	foreach ( array_keys( $files ) as $file ) {
		printf( '<link rel="modulepreload" href="%s">' . "\n", esc_url( plugins_url( 'assets/' . $file, PLUGIN_FILE ) ) );
	}
}

/** The build's chunks per tag (assets/stagedoor-preload.json), or none when it cannot be read. */
function preload_list(): array {
	$file = dirname( PLUGIN_FILE ) . '/assets/stagedoor-preload.json';
	// phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a file of this plugin.
	$json = is_readable( $file ) ? file_get_contents( $file ) : false;
	$list = false !== $json ? json_decode( $json, true ) : null;
	return is_array( $list ) ? $list : array();
}

/**
 * The list of events the page's first <event-list> asks for as it appears, as src/loader.ts
 * writes it: its plain form only (no venue, no single event; an event type of digits), on the
 * page's endpoint. Null when it asks for something else.
 */
function events_request( array $config ): ?string {
	$elements = page_elements();
	if ( ! isset( $elements['event-list'] ) ) {
		return null;
	}
	$path = first_list_path( $elements['event-list'] );
	if ( null === $path ) {
		return null;
	}
	return page_endpoint( $config ) . $path;
}

/** The endpoint the page's elements ask (its configuration's, else /api), without a trailing slash. */
function page_endpoint( array $config ): string {
	$endpoint = isset( $config['endpoint'] ) && is_string( $config['endpoint'] ) && '' !== $config['endpoint'] ? $config['endpoint'] : '/api';
	return rtrim( $endpoint, '/' );
}

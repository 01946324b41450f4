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

/** Called whenever an element is rendered: the script, and the configuration once per page. */
function use_on_this_page(): void {
	static $asked = false;
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
	// JSON_HEX_TAG: no value can close the script element (`</script>` becomes \u003C/script\u003E).
	$json = wp_json_encode( page_config(), JSON_HEX_TAG | JSON_HEX_AMP | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE );
	printf( '<script type="application/json" data-stagedoor-config>%s</script>' . "\n", $json ? $json : '{}' );
}

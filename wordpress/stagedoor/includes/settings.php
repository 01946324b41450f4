<?php
/**
 * Settings → Stagedoor: where the proxy is, the currency, the language, the
 * service's time zone, where payment returns the customer, analytics, where
 * shows link and the booking's steps in the page's address. One option
 * (`stagedoor_settings`), every field checked on save: a value that fails
 * keeps the previous one and says why, quoting what was typed.
 */

namespace Stagedoor;

defined( 'ABSPATH' ) || exit;

const OPTION = 'stagedoor_settings';
const SETTINGS_PAGE = 'stagedoor';

/** Blank means "the widget's default", named beside each field. */
function default_settings(): array {
	return array(
		'endpoint'    => '',
		'currency'    => 'GBP',
		'locale'      => '',
		'time_zone'   => '',
		'success_url' => '',
		'failure_url' => '',
		'analytics'   => '',
		'event_href'  => '',
		'history'     => '',
		'event_param' => '',
	);
}

/** The saved settings, every key present. */
function settings(): array {
	$saved = get_option( OPTION, array() );
	return array_merge( default_settings(), is_array( $saved ) ? array_intersect_key( $saved, default_settings() ) : array() );
}

/**
 * An address the browser may call or be sent to: an absolute http(s) URL
 * without credentials, or a path on this site (`/api`). `$allow_query` for
 * return pages (`/tickets?done=1`); the endpoint takes none, because the
 * widget appends the operation's path to it.
 *
 * @return array{0: string, 1: string|null} the clean value and, when it is refused, why.
 */
function check_address( string $raw, bool $allow_query, string $example ): array {
	$value = trim( $raw );
	if ( '' === $value ) {
		return array( '', null );
	}
	/* translators: 1: what was typed, 2: an example address. */
	$refused = sprintf( __( '“%1$s” is not an address the widget can use. Write a full address such as %2$s, or a path on this site such as /api.', 'stagedoor' ), $value, $example );
	if ( preg_match( '/[\s\x00-\x1f\x7f<>"\'`\\\\]/', $value ) ) {
		return array( '', $refused );
	}
	if ( '/' === $value[0] && ( strlen( $value ) < 2 || '/' !== $value[1] ) ) {
		$parts = wp_parse_url( 'http://site.invalid' . $value );
	} else {
		$parts = wp_parse_url( $value );
		if ( ! is_array( $parts ) || ! isset( $parts['scheme'], $parts['host'] ) || ! in_array( strtolower( $parts['scheme'] ), array( 'http', 'https' ), true ) ) {
			return array( '', $refused );
		}
		if ( isset( $parts['user'] ) || isset( $parts['pass'] ) ) {
			return array( '', __( 'The address must not carry a user name or password: the browser of every visitor would see them.', 'stagedoor' ) );
		}
	}
	if ( ! is_array( $parts ) || isset( $parts['fragment'] ) || ( isset( $parts['query'] ) && ! $allow_query ) ) {
		return array(
			'',
			$allow_query
				? $refused
				/* translators: %s: what was typed. */
				: sprintf( __( '“%s”: the proxy endpoint takes no query (?…) or fragment (#…); the widget adds the path of each request to it.', 'stagedoor' ), $value ),
		);
	}
	if ( ! $allow_query ) {
		$value = rtrim( $value, '/' );
		if ( '' === $value ) {
			return array( '', __( 'The proxy endpoint cannot be the site root: name the proxy’s path, such as /api.', 'stagedoor' ) );
		}
	}
	return array( $value, null );
}

/**
 * The address of the site's own page for one show, `{EventId}` standing for the event's id
 * (`/shows/{EventId}`): a path on this site, or an https address (an http one only on this site's host).
 *
 * @return array{0: string, 1: string|null}
 */
function check_event_href( string $raw ): array {
	$value = trim( $raw );
	if ( '' === $value ) {
		return array( '', null );
	}
	if ( false === strpos( $value, '{EventId}' ) ) {
		/* translators: %s: what was typed. */
		return array( '', sprintf( __( '“%s” has no {EventId}: write where the event’s id goes, such as /shows/{EventId}.', 'stagedoor' ), $value ) );
	}
	list( $address, $error ) = check_address( str_replace( '{EventId}', '1', $value ), true, 'https://theatre.example.org/shows/{EventId}' );
	if ( null !== $error ) {
		return array( '', $error );
	}
	$host = wp_parse_url( $address, PHP_URL_HOST );
	if ( 0 === stripos( $address, 'http://' ) && strtolower( (string) $host ) !== strtolower( (string) wp_parse_url( home_url(), PHP_URL_HOST ) ) ) {
		/* translators: %s: what was typed. */
		return array( '', sprintf( __( '“%s”: a show page on another site must be an https:// address.', 'stagedoor' ), $value ) );
	}
	return array( $value, null );
}

/** @return array{0: string, 1: string|null} */
function check_currency( string $raw ): array {
	$value = strtoupper( trim( $raw ) );
	if ( '' === $value ) {
		return array( 'GBP', null );
	}
	if ( ! preg_match( '/^[A-Z]{3}$/', $value ) ) {
		/* translators: %s: what was typed. */
		return array( '', sprintf( __( '“%s” is not a currency code. Use the three letters of ISO 4217, such as GBP, EUR or USD.', 'stagedoor' ), trim( $raw ) ) );
	}
	return array( $value, null );
}

/** A BCP 47 language tag (`de-DE`); WordPress's own form (`de_DE`) is accepted and rewritten. */
function check_locale( string $raw ): array {
	$value = str_replace( '_', '-', trim( $raw ) );
	if ( '' === $value ) {
		return array( '', null );
	}
	if ( ! preg_match( '/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/', $value ) ) {
		/* translators: %s: what was typed. */
		return array( '', sprintf( __( '“%s” is not a language tag. Use one such as en-GB, de-DE or fr, or leave it blank to follow the site’s language.', 'stagedoor' ), trim( $raw ) ) );
	}
	return array( $value, null );
}

/** An IANA time zone name (`Europe/London`). */
function check_time_zone( string $raw ): array {
	$value = trim( $raw );
	if ( '' === $value ) {
		return array( '', null );
	}
	if ( ! in_array( $value, \DateTimeZone::listIdentifiers(), true ) && 'UTC' !== $value ) {
		/* translators: %s: what was typed. */
		return array( '', sprintf( __( '“%s” is not a time zone name. Use one such as Europe/London or America/New_York.', 'stagedoor' ), $value ) );
	}
	return array( $value, null );
}

/** Analytics: off (blank), `ga4` (GA4's e-commerce events to the dataLayer) or `events` (the booking-analytics DOM event only). */
function check_analytics( string $raw ): array {
	$value = strtolower( trim( $raw ) );
	if ( in_array( $value, array( '', 'ga4', 'events' ), true ) ) {
		return array( $value, null );
	}
	/* translators: %s: what was sent. */
	return array( '', sprintf( __( '“%s” is not one of the choices: off, GA4 or events only.', 'stagedoor' ), trim( $raw ) ) );
}

/** The flow in the address: on (blank) or `off` (the address and the history left to a site that routes itself). */
function check_history( string $raw ): array {
	$value = strtolower( trim( $raw ) );
	if ( in_array( $value, array( '', 'off' ), true ) ) {
		return array( $value, null );
	}
	/* translators: %s: what was sent. */
	return array( '', sprintf( __( '“%s” is not one of the choices: on or off.', 'stagedoor' ), trim( $raw ) ) );
}

/**
 * The query parameter naming the show and step in the address (`show` for `?show=1042`): letters,
 * digits, - and _; not `stagedoor` (the payment return's marker) nor one of WordPress's own, which
 * would open another page.
 *
 * @return array{0: string, 1: string|null}
 */
function check_event_param( string $raw ): array {
	$value = trim( $raw );
	if ( '' === $value ) {
		return array( '', null );
	}
	if ( ! preg_match( '/^[A-Za-z0-9_-]{1,40}$/', $value ) ) {
		/* translators: %s: what was typed. */
		return array( '', sprintf( __( '“%s” cannot name the parameter: use up to 40 letters, digits, - or _, such as show.', 'stagedoor' ), $value ) );
	}
	if ( 'stagedoor' === $value ) {
		return array( '', __( '“stagedoor” marks the customer’s return from payment: choose another name, such as show.', 'stagedoor' ) );
	}
	global $wp;
	if ( isset( $wp->public_query_vars ) && in_array( $value, (array) $wp->public_query_vars, true ) ) {
		/* translators: %s: what was typed. */
		return array( '', sprintf( __( '“%s” is one of WordPress’s own address parameters (it would open another page): choose another name, such as show.', 'stagedoor' ), $value ) );
	}
	return array( $value, null );
}

/** Every field checked; a refused one keeps its previous value. Called by options.php on save. */
function sanitize_settings( $input ): array {
	$input    = is_array( $input ) ? $input : array();
	$previous = settings();
	$clean    = $previous;
	$text     = static function ( string $key ) use ( $input ): string {
		return isset( $input[ $key ] ) && is_scalar( $input[ $key ] ) ? (string) $input[ $key ] : '';
	};
	$checks = array(
		'endpoint'    => check_address( $text( 'endpoint' ), false, 'https://tickets.example.org/api' ),
		'currency'    => check_currency( $text( 'currency' ) ),
		'locale'      => check_locale( $text( 'locale' ) ),
		'time_zone'   => check_time_zone( $text( 'time_zone' ) ),
		'success_url' => check_address( $text( 'success_url' ), true, 'https://theatre.example.org/thank-you' ),
		'failure_url' => check_address( $text( 'failure_url' ), true, 'https://theatre.example.org/tickets' ),
		'analytics'   => check_analytics( $text( 'analytics' ) ),
		'event_href'  => check_event_href( $text( 'event_href' ) ),
		'history'     => check_history( $text( 'history' ) ),
		'event_param' => check_event_param( $text( 'event_param' ) ),
	);
	foreach ( $checks as $key => list( $value, $error ) ) {
		if ( null !== $error ) {
			// settings_errors() prints messages as HTML, and this one quotes what was typed: escape it here.
			add_settings_error( OPTION, 'stagedoor-' . $key, esc_html( field_label( $key ) . ': ' . $error ), 'error' );
			continue;
		}
		$clean[ $key ] = $value;
	}
	if ( 0 === strpos( $clean['endpoint'], 'http://' ) && 0 === strpos( home_url(), 'https://' ) ) {
		add_settings_error( OPTION, 'stagedoor-endpoint-http', esc_html__( 'Proxy endpoint: this site is served over https, and browsers refuse requests from an https page to an http:// address. Give the proxy an https address.', 'stagedoor' ), 'warning' );
	}
	return $clean;
}

function field_label( string $key ): string {
	$labels = array(
		'endpoint'    => __( 'Proxy endpoint', 'stagedoor' ),
		'currency'    => __( 'Currency', 'stagedoor' ),
		'locale'      => __( 'Language', 'stagedoor' ),
		'time_zone'   => __( 'Time zone of the ticket service', 'stagedoor' ),
		'success_url' => __( 'Return page after payment', 'stagedoor' ),
		'failure_url' => __( 'Return page after a failed payment', 'stagedoor' ),
		'analytics'   => __( 'Analytics', 'stagedoor' ),
		'event_href'  => __( 'Show page address pattern', 'stagedoor' ),
		'history'     => __( 'Booking steps in the address', 'stagedoor' ),
		'event_param' => __( 'Address parameter', 'stagedoor' ),
	);
	return $labels[ $key ];
}

function field_description( string $key ): string {
	switch ( $key ) {
		case 'endpoint':
			return __( 'The address of your Stagedoor proxy, which holds the ticket service’s Api-Key (it never comes near WordPress). A path such as /api means this site’s own domain. Blank: /api.', 'stagedoor' );
		case 'currency':
			return __( 'ISO 4217 code of the prices the service sells in (it never says). Default GBP.', 'stagedoor' );
		case 'locale':
			/* translators: %s: the site's language tag. */
			return sprintf( __( 'Language of the booking elements, as a tag such as en-GB. Blank: the site’s language (now %s).', 'stagedoor' ), str_replace( '_', '-', get_locale() ) );
		case 'time_zone':
			return __( 'The service’s dates carry no time zone; this is the one they are in. Blank: Europe/London.', 'stagedoor' );
		case 'success_url':
			return __( 'Where the payment page sends the customer after paying. Put a Booking confirmation block or [stagedoor-booking-confirmation] there. Blank: back to the page they booked on.', 'stagedoor' );
		case 'analytics':
			return __( 'GA4: the booking steps (seats added, checkout, purchase) go to your Google tag or Tag Manager’s dataLayer as GA4 e-commerce events; events only: as the booking-analytics event for other tools. Never the customer’s name, e-mail, phone or address. Off: no analytics code is loaded.', 'stagedoor' );
		case 'event_href':
			return __( 'Where each show in a list links, {EventId} standing for the show’s id, such as /shows/{EventId}: a path on this site or an https address. Blank: the list’s own page, which opens the show in place.', 'stagedoor' );
		case 'history':
			return __( 'On: the show, its dates or a seat map the visitor is at is named in the page’s address, so Back and Forward move through the booking within the page, and a reload, a bookmark or a shared link opens the same step. Off: the address and the browser’s history are left alone, for a site that routes itself (a page opened at a show’s link still shows that show).', 'stagedoor' );
		case 'event_param':
			return __( 'The query parameter that names the show and step in the page’s address (?stagedoor-event=1042): change it only if your site already uses that name. Letters, digits, - and _. Blank: stagedoor-event.', 'stagedoor' );
		default:
			return __( 'Where the payment page sends the customer when payment fails. Blank: back to the page they booked on, where the basket is still held.', 'stagedoor' );
	}
}

function render_field( array $args ): void {
	$key      = $args['key'];
	$value    = settings()[ $key ];
	$id       = 'stagedoor-' . str_replace( '_', '-', $key );
	$choices  = array(
		'analytics' => array(
			''       => __( 'Off', 'stagedoor' ),
			'ga4'    => __( 'GA4 (dataLayer)', 'stagedoor' ),
			'events' => __( 'Events only', 'stagedoor' ),
		),
		'history'   => array(
			''    => __( 'On', 'stagedoor' ),
			'off' => __( 'Off', 'stagedoor' ),
		),
	);
	if ( isset( $choices[ $key ] ) ) {
		printf( '<select id="%1$s" name="%2$s[%3$s]" aria-describedby="%1$s-description">', esc_attr( $id ), esc_attr( OPTION ), esc_attr( $key ) );
		$choices = $choices[ $key ];
		foreach ( $choices as $choice => $label ) {
			printf( '<option value="%s"%s>%s</option>', esc_attr( $choice ), selected( $value, $choice, false ), esc_html( $label ) );
		}
		echo '</select>';
		printf( '<p class="description" id="%s-description">%s</p>', esc_attr( $id ), esc_html( field_description( $key ) ) );
		return;
	}
	$examples = array(
		'endpoint'    => 'https://tickets.example.org/api',
		'currency'    => 'GBP',
		'locale'      => str_replace( '_', '-', get_locale() ),
		'time_zone'   => 'Europe/London',
		'success_url' => '',
		'failure_url' => '',
		'event_href'  => '/shows/{EventId}',
		'event_param' => 'stagedoor-event',
	);
	printf(
		'<input type="text" id="%1$s" name="%2$s[%3$s]" value="%4$s" placeholder="%5$s" class="%6$s" aria-describedby="%1$s-description" spellcheck="false" autocomplete="off" />',
		esc_attr( $id ),
		esc_attr( OPTION ),
		esc_attr( $key ),
		esc_attr( $value ),
		esc_attr( $examples[ $key ] ),
		'currency' === $key ? 'small-text code' : 'regular-text code'
	);
	printf( '<p class="description" id="%s-description">%s</p>', esc_attr( $id ), esc_html( field_description( $key ) ) );
}

add_action(
	'admin_init',
	static function (): void {
		register_setting(
			SETTINGS_PAGE,
			OPTION,
			array(
				'type'              => 'object',
				'sanitize_callback' => __NAMESPACE__ . '\\sanitize_settings',
				'default'           => default_settings(),
				'show_in_rest'      => false,
			)
		);
		add_settings_section( 'stagedoor-connection', __( 'Connection', 'stagedoor' ), '__return_false', SETTINGS_PAGE );
		add_settings_section( 'stagedoor-display', __( 'Money, language and time', 'stagedoor' ), '__return_false', SETTINGS_PAGE );
		add_settings_section( 'stagedoor-payment', __( 'After payment', 'stagedoor' ), '__return_false', SETTINGS_PAGE );
		add_settings_section( 'stagedoor-analytics', __( 'Analytics', 'stagedoor' ), '__return_false', SETTINGS_PAGE );
		add_settings_section( 'stagedoor-links', __( 'Links to shows', 'stagedoor' ), '__return_false', SETTINGS_PAGE );
		$sections = array(
			'endpoint'    => 'stagedoor-connection',
			'currency'    => 'stagedoor-display',
			'locale'      => 'stagedoor-display',
			'time_zone'   => 'stagedoor-display',
			'success_url' => 'stagedoor-payment',
			'failure_url' => 'stagedoor-payment',
			'analytics'   => 'stagedoor-analytics',
			'event_href'  => 'stagedoor-links',
			'history'     => 'stagedoor-links',
			'event_param' => 'stagedoor-links',
		);
		foreach ( $sections as $key => $section ) {
			add_settings_field(
				'stagedoor-' . $key,
				esc_html( field_label( $key ) ),
				__NAMESPACE__ . '\\render_field',
				SETTINGS_PAGE,
				$section,
				array(
					'key'       => $key,
					'label_for' => 'stagedoor-' . str_replace( '_', '-', $key ),
				)
			);
		}
	}
);

add_action(
	'admin_menu',
	static function (): void {
		add_options_page( __( 'Stagedoor', 'stagedoor' ), __( 'Stagedoor', 'stagedoor' ), 'manage_options', SETTINGS_PAGE, __NAMESPACE__ . '\\render_settings_page' );
	}
);

/** A "Settings" link beside "Deactivate" on the Plugins screen. */
add_filter(
	'plugin_action_links_' . plugin_basename( PLUGIN_FILE ),
	static function ( array $links ): array {
		$url = admin_url( 'options-general.php?page=' . SETTINGS_PAGE );
		array_unshift( $links, sprintf( '<a href="%s">%s</a>', esc_url( $url ), esc_html__( 'Settings', 'stagedoor' ) ) );
		return $links;
	}
);

function render_settings_page(): void {
	if ( ! current_user_can( 'manage_options' ) ) {
		return;
	}
	echo '<div class="wrap">';
	printf( '<h1>%s</h1>', esc_html__( 'Stagedoor', 'stagedoor' ) );
	if ( ! elements() ) {
		printf( '<div class="notice notice-error"><p>%s</p></div>', esc_html( missing_build_message() ) );
	}
	echo '<form action="options.php" method="post">';
	settings_fields( SETTINGS_PAGE );
	do_settings_sections( SETTINGS_PAGE );
	submit_button();
	echo '</form>';
	render_reference();
	echo '</div>';
}

/** What editors can place, with every attribute: the same table the shortcodes and blocks check against. */
function render_reference(): void {
	printf( '<h2>%s</h2>', esc_html__( 'Placing the booking elements', 'stagedoor' ) );
	printf(
		'<p>%s</p>',
		esc_html__( 'In the block editor, add the blocks under “Stagedoor”. Anywhere else (classic editor, widgets, page builders) use the shortcodes below. Elements anywhere on one page share one basket: a basket timer in a widget area counts down the seats chosen in a seat picker in the content.', 'stagedoor' )
	);
	echo '<table class="widefat striped"><thead><tr>';
	printf( '<th scope="col">%s</th><th scope="col">%s</th><th scope="col">%s</th>', esc_html__( 'Shortcode', 'stagedoor' ), esc_html__( 'What it shows', 'stagedoor' ), esc_html__( 'Attributes', 'stagedoor' ) );
	echo '</tr></thead><tbody>';
	foreach ( elements() as $element ) {
		echo '<tr>';
		printf( '<td><code>[%s]</code></td>', esc_html( shortcode_name( $element ) ) );
		printf( '<td>%s</td>', code_spans( $element['summary'] ) );
		echo '<td>';
		if ( ! $element['attributes'] ) {
			esc_html_e( 'None.', 'stagedoor' );
		}
		foreach ( $element['attributes'] as $attribute ) {
			$kind = 'enum' === $attribute['type'] ? implode( ' | ', $attribute['values'] ) : $attribute['type'];
			printf( '<p><code>%s</code> <em>(%s)</em> %s</p>', esc_html( $attribute['name'] ), esc_html( $kind ), code_spans( $attribute['description'] ) );
		}
		echo '</td></tr>';
	}
	echo '</tbody></table>';
}

/** The elements' descriptions mark code with backticks (`performance-id`): escaped text with those spans as <code>. */
function code_spans( string $text ): string {
	return (string) preg_replace( '/`([^`]+)`/', '<code>$1</code>', esc_html( $text ) );
}

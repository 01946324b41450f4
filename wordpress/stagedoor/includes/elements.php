<?php
/**
 * One shortcode (`[stagedoor-seat-picker performance-id="1042"]`) and one
 * block (`stagedoor/seat-picker`) per element, both rendered by
 * render_element(): the element's tag with only the attributes elements.json
 * declares for it, each checked against its type (a number, a yes/no, one of
 * a closed set of words, or plain text) and escaped. Nothing an editor types
 * becomes markup or script: unknown attributes are dropped, text loses any
 * tags, and every value is written through esc_attr(). What was dropped is
 * said, to people who can edit the page, in a note beside the element;
 * visitors see only the element.
 *
 * elements.json is generated from the widget's own element descriptions when
 * the plugin zip is built (`npm run build`), so the two cannot disagree.
 */

namespace Stagedoor;

defined( 'ABSPATH' ) || exit;

/**
 * Attributes editors do not get, whatever elements.json says. `endpoint`:
 * where the widget sends the customer's name, e-mail and address is the site
 * owner's choice (Settings → Stagedoor), not something any author may change
 * on one page.
 */
const ADMIN_ONLY_ATTRIBUTES = array( 'endpoint' );

/** <booking-provider> groups elements under one configuration; here the settings page is that configuration. */
const NOT_PLACEABLE = array( 'booking-provider' );

function missing_build_message(): string {
	return __( 'Stagedoor cannot find its elements (elements.json) or its script (assets/stagedoor.js). Install the plugin from the zip that `npm run build` makes (dist/stagedoor-wordpress.zip), not from the source folder.', 'stagedoor' );
}

/** The elements editors can place, with the attributes they may set. */
function elements(): array {
	static $elements = null;
	if ( null !== $elements ) {
		return $elements;
	}
	$elements = array();
	$file     = dirname( __DIR__ ) . '/elements.json';
	$table    = is_readable( $file ) ? json_decode( (string) file_get_contents( $file ), true ) : null;
	foreach ( ( is_array( $table ) && isset( $table['elements'] ) ? $table['elements'] : array() ) as $element ) {
		if ( ! isset( $element['tag'], $element['attributes'] ) || ! preg_match( '/^[a-z][a-z0-9]*(-[a-z0-9]+)+$/', $element['tag'] ) || in_array( $element['tag'], NOT_PLACEABLE, true ) ) {
			continue;
		}
		$element['attributes'] = array_values(
			array_filter(
				$element['attributes'],
				static function ( $attribute ): bool {
					return isset( $attribute['name'], $attribute['property'], $attribute['type'] )
						&& preg_match( '/^[a-z][a-z0-9-]*$/', $attribute['name'] )
						&& ! in_array( $attribute['name'], ADMIN_ONLY_ATTRIBUTES, true );
				}
			)
		);
		$elements[ $element['tag'] ] = $element;
	}
	return $elements;
}

function shortcode_name( array $element ): string {
	return 'stagedoor-' . $element['tag'];
}

function block_name( array $element ): string {
	return 'stagedoor/' . $element['tag'];
}

/** A readable label for an attribute: `performance-id` → "Performance ID". */
function attribute_label( array $attribute ): string {
	$words = explode( '-', $attribute['name'] );
	$words = array_map(
		static function ( string $word ): string {
			return 'id' === $word ? 'ID' : ( 'url' === $word ? 'URL' : $word );
		},
		$words
	);
	return ucfirst( implode( ' ', $words ) );
}

/**
 * One value checked against its attribute's type.
 *
 * @param mixed $value as typed in a shortcode (a string) or stored by a block (typed JSON).
 * @return array{0: bool, 1: string|true|null} whether it is acceptable, and what to write:
 *         a string, true (the attribute alone) or null (leave the attribute out).
 */
function clean_value( array $attribute, $value ): array {
	if ( is_array( $value ) || is_object( $value ) ) {
		return array( false, null );
	}
	switch ( $attribute['type'] ) {
		case 'number':
			if ( is_int( $value ) || is_float( $value ) ) {
				return is_finite( (float) $value ) ? array( true, (string) $value ) : array( false, null );
			}
			$text = trim( (string) $value );
			return preg_match( '/^-?\d{1,15}(\.\d{1,15})?$/', $text ) ? array( true, $text ) : array( false, null );
		case 'boolean':
			if ( is_bool( $value ) ) {
				return array( true, $value ? true : null );
			}
			$text = strtolower( trim( (string) $value ) );
			if ( in_array( $text, array( '', '1', 'true', 'yes', 'on' ), true ) ) {
				return array( true, true );
			}
			return in_array( $text, array( '0', 'false', 'no', 'off' ), true ) ? array( true, null ) : array( false, null );
		case 'enum':
			$text = strtolower( trim( (string) $value ) );
			return in_array( $text, $attribute['values'], true ) ? array( true, $text ) : array( false, null );
		default:
			$text = sanitize_text_field( (string) $value );
			return array( true, '' === $text ? null : $text );
	}
}

function describe_type( array $attribute ): string {
	switch ( $attribute['type'] ) {
		case 'number':
			return __( 'a number', 'stagedoor' );
		case 'boolean':
			return __( 'true or false', 'stagedoor' );
		case 'enum':
			/* translators: %s: the allowed words, separated by commas. */
			return sprintf( __( 'one of: %s', 'stagedoor' ), implode( ', ', $attribute['values'] ) );
		default:
			return __( 'text', 'stagedoor' );
	}
}

/**
 * The element's HTML. `$values`: attribute name => value as given; `$problems`:
 * what the caller already could not read. Also asks for the script and the
 * page configuration (assets.php).
 */
function render_element( array $element, array $values, array $problems, string $placed_as ): string {
	$html    = '<' . $element['tag'];
	$written = array();
	foreach ( $element['attributes'] as $attribute ) {
		if ( ! array_key_exists( $attribute['name'], $values ) ) {
			continue;
		}
		list( $ok, $clean ) = clean_value( $attribute, $values[ $attribute['name'] ] );
		if ( ! $ok ) {
			$given      = $values[ $attribute['name'] ];
			$problems[] = sprintf(
				/* translators: 1: attribute name, 2: what was given, 3: the kind of value expected. */
				__( '%1$s="%2$s" was ignored: it must be %3$s.', 'stagedoor' ),
				$attribute['name'],
				is_scalar( $given ) ? (string) $given : gettype( $given ),
				describe_type( $attribute )
			);
			continue;
		}
		if ( true === $clean ) {
			$html .= ' ' . $attribute['name'];
		} elseif ( null !== $clean ) {
			$html .= ' ' . $attribute['name'] . '="' . esc_attr( $clean ) . '"';
		}
		if ( null !== $clean ) {
			$written[ $attribute['name'] ] = $clean;
		}
	}
	// An <event-list>'s first cards, printed inside it (first-cards.php); escaped there.
	$html .= '>' . ( 'event-list' === $element['tag'] ? first_cards( $written ) : '' ) . '</' . $element['tag'] . '>';
	use_on_this_page( $element['tag'], $written );
	return problems_note( $problems, $placed_as ) . $html;
}

/** What was ignored, for people who can fix it; nothing for visitors. */
function problems_note( array $problems, string $placed_as ): string {
	if ( ! $problems || ! current_user_can( 'edit_posts' ) ) {
		return '';
	}
	$items = '';
	foreach ( $problems as $problem ) {
		$items .= '<li>' . esc_html( $problem ) . '</li>';
	}
	return sprintf(
		'<div class="stagedoor-problems" role="note" style="border:2px solid #b32d2e;padding:.5em 1em;margin-top:.5em;margin-bottom:.5em"><p><strong>%s</strong> %s</p><ul>%s</ul></div>',
		esc_html__( 'Stagedoor:', 'stagedoor' ),
		/* translators: %s: the shortcode or block name. */
		esc_html( sprintf( __( 'part of %s was not understood (only editors see this note).', 'stagedoor' ), $placed_as ) ),
		$items
	);
}

// ------------------------------------------------------------------ shortcodes

/**
 * Shortcode attributes by name. WordPress hands over `name="value"` pairs
 * lower-cased, a bare word as a numbered entry (a true/false attribute given
 * alone switches it on), and a text it could not read at all as one string.
 * Typographic quotes around a value (pasted from a word processor:
 * performance-id=”1042″) are taken off, as the editor meant.
 *
 * @param array|string $atts
 */
function render_shortcode( array $element, $atts ): string {
	$by_name  = array();
	$values   = array();
	$problems = array();
	foreach ( $element['attributes'] as $attribute ) {
		$by_name[ $attribute['name'] ] = $attribute;
	}
	if ( is_string( $atts ) && '' !== trim( $atts ) ) {
		$atts = array( trim( $atts ) );
	}
	foreach ( is_array( $atts ) ? $atts : array() as $key => $value ) {
		$value = preg_replace( '/^[\x{201C}\x{201D}\x{201E}\x{2018}\x{2019}\x{2032}\x{2033}]+|[\x{201C}\x{201D}\x{201E}\x{2018}\x{2019}\x{2032}\x{2033}]+$/u', '', (string) $value );
		if ( is_int( $key ) ) {
			$word = strtolower( trim( $value ) );
			if ( isset( $by_name[ $word ] ) && 'boolean' === $by_name[ $word ]['type'] ) {
				$values[ $word ] = true;
			} else {
				/* translators: %s: what the editor wrote. */
				$problems[] = sprintf( __( '“%s” could not be read: write name="value".', 'stagedoor' ), $value );
			}
		} elseif ( isset( $by_name[ $key ] ) ) {
			$values[ $key ] = $value;
		} else {
			$known = array_keys( $by_name );
			/* translators: 1: the attribute name, 2: the attributes this shortcode has. */
			$problems[] = sprintf( __( '“%1$s” is not an attribute of this shortcode (it has: %2$s).', 'stagedoor' ), (string) $key, $known ? implode( ', ', $known ) : __( 'none', 'stagedoor' ) );
		}
	}
	return render_element( $element, $values, $problems, '[' . shortcode_name( $element ) . ']' );
}

add_action(
	'init',
	static function (): void {
		foreach ( elements() as $element ) {
			add_shortcode(
				shortcode_name( $element ),
				static function ( $atts ) use ( $element ): string {
					return render_shortcode( $element, $atts );
				}
			);
		}
	}
);

// ------------------------------------------------------------------ blocks

/** A block's attribute schema; WordPress checks stored values against it before rendering. */
function block_attributes( array $element ): array {
	$schema = array();
	foreach ( $element['attributes'] as $attribute ) {
		switch ( $attribute['type'] ) {
			case 'number':
				$schema[ $attribute['property'] ] = array( 'type' => 'number' );
				break;
			case 'boolean':
				$schema[ $attribute['property'] ] = array( 'type' => 'boolean' );
				break;
			case 'enum':
				$schema[ $attribute['property'] ] = array(
					'type' => 'string',
					'enum' => $attribute['values'],
				);
				break;
			default:
				$schema[ $attribute['property'] ] = array( 'type' => 'string' );
		}
	}
	return $schema;
}

/** Block attributes are stored under the element's property names (performanceId); the element takes attribute names. */
function render_block( array $element, array $block_attributes ): string {
	$values = array();
	foreach ( $element['attributes'] as $attribute ) {
		if ( array_key_exists( $attribute['property'], $block_attributes ) && null !== $block_attributes[ $attribute['property'] ] ) {
			$values[ $attribute['name'] ] = $block_attributes[ $attribute['property'] ];
		}
	}
	return render_element( $element, $values, array(), block_name( $element ) );
}

add_filter(
	'block_categories_all',
	static function ( array $categories ): array {
		$categories[] = array(
			'slug'  => 'stagedoor',
			'title' => __( 'Stagedoor tickets', 'stagedoor' ),
			'icon'  => 'tickets-alt',
		);
		return $categories;
	}
);

add_action(
	'init',
	static function (): void {
		if ( ! elements() ) {
			return;
		}
		$editor = 'stagedoor-blocks';
		wp_register_script(
			$editor,
			plugins_url( 'blocks/editor.js', PLUGIN_FILE ),
			array( 'wp-blocks', 'wp-element', 'wp-block-editor', 'wp-components', 'wp-i18n' ),
			VERSION,
			true
		);
		$for_editor = array();
		foreach ( elements() as $element ) {
			$attributes = array();
			foreach ( $element['attributes'] as $attribute ) {
				$attributes[] = array(
					'property' => $attribute['property'],
					'type'     => $attribute['type'],
					'values'   => isset( $attribute['values'] ) ? $attribute['values'] : array(),
					'label'    => attribute_label( $attribute ),
					'help'     => $attribute['description'],
				);
			}
			$for_editor[] = array(
				'name'       => block_name( $element ),
				'tag'        => $element['tag'],
				'shortcode'  => shortcode_name( $element ),
				'attributes' => $attributes,
			);
			register_block_type(
				block_name( $element ),
				array(
					'api_version'     => 2,
					'title'           => $element['title'],
					'description'     => $element['summary'],
					'category'        => 'stagedoor',
					'icon'            => 'tickets-alt',
					'keywords'        => array( 'tickets', 'booking', 'stagedoor', str_replace( '-', ' ', $element['tag'] ) ),
					'attributes'      => block_attributes( $element ),
					'supports'        => array( 'html' => false ),
					'editor_script'   => $editor,
					'render_callback' => static function ( $block_attributes ) use ( $element ): string {
						return render_block( $element, is_array( $block_attributes ) ? $block_attributes : array() );
					},
				)
			);
		}
		wp_add_inline_script( $editor, 'window.stagedoorBlocks = ' . wp_json_encode( $for_editor, JSON_HEX_TAG | JSON_HEX_AMP ) . ';', 'before' );
	}
);

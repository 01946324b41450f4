<?php
/**
 * Plugin Name:       Stagedoor
 * Description:       Ticket booking on your pages: what is on, performance calendars, seat maps, the basket timer, checkout and the booking confirmation, as blocks and shortcodes. Talks to your Stagedoor proxy; the service's key never reaches WordPress or the browser.
 * Version:           0.1.0
 * Requires at least: 6.1
 * Requires PHP:      7.4
 * Author:            Stagedoor
 * License:           MIT
 * License URI:       https://opensource.org/licenses/MIT
 * Text Domain:       stagedoor
 *
 * The widget itself is the script-tag bundle in assets/ (built by `npm run
 * build`, served from this plugin's own folder). This plugin only:
 *   - includes/settings.php  the settings page (endpoint, currency, locale,
 *                            time zone, return URLs, analytics, show links,
 *                            the booking's steps in the address), validated;
 *   - includes/elements.php  one shortcode and one block per element, with
 *                            every attribute checked against elements.json;
 *   - includes/assets.php    the bundle as a module script and the page-level
 *                            configuration block, only on pages that show an
 *                            element;
 *   - includes/markup.php    the shows as schema.org JSON-LD in wp_head, on a
 *                            page holding an <event-list> (one show's detail
 *                            when the page's address names it);
 *   - includes/first-cards.php  the event list's first cards inside it, as the
 *                            element's declarative shadow root (first-cards.json).
 */

namespace Stagedoor;

defined( 'ABSPATH' ) || exit;

const VERSION = '0.1.0';
const PLUGIN_FILE = __FILE__;

require_once __DIR__ . '/includes/settings.php';
require_once __DIR__ . '/includes/elements.php';
require_once __DIR__ . '/includes/assets.php';
require_once __DIR__ . '/includes/markup.php';
require_once __DIR__ . '/includes/first-cards.php';

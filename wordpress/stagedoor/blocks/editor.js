/**
 * The Stagedoor blocks in the block editor. Each block's name, title,
 * description and attribute schema come from the server (register_block_type
 * in includes/elements.php, from elements.json); this file adds how the block
 * looks while editing: a placeholder naming the element, with a field per
 * attribute (labelled, with the element's own description as help). Blocks are dynamic: the
 * server renders the element on the page, so nothing typed here is saved as
 * markup. Plain script with the editor's globals: no build step.
 */
(function (wp, blocks) {
  if (!wp || !wp.blocks || !Array.isArray(blocks)) return;
  var el = wp.element.createElement;
  var __ = wp.i18n.__;
  var sprintf = wp.i18n.sprintf;
  var useBlockProps = wp.blockEditor.useBlockProps;
  var components = wp.components;

  /** One field for one attribute; `value` undefined means the element's default. */
  function control(attribute, value, set, key) {
    // The descriptions mark code with backticks, which help text shows as typed.
    var common = { key: key, label: attribute.label, help: attribute.help.replace(/`/g, ''), __nextHasNoMarginBottom: true };
    switch (attribute.type) {
      case 'boolean':
        return el(components.ToggleControl, Object.assign({}, common, {
          checked: value === true,
          onChange: function (checked) { set(checked ? true : undefined); },
        }));
      case 'enum':
        return el(components.SelectControl, Object.assign({}, common, {
          value: value === undefined ? '' : value,
          options: [{ label: __('Default', 'stagedoor'), value: '' }].concat(
            attribute.values.map(function (v) { return { label: v, value: v }; })
          ),
          onChange: function (v) { set(v === '' ? undefined : v); },
        }));
      case 'number':
        return el(components.TextControl, Object.assign({}, common, {
          type: 'number',
          value: value === undefined || value === null ? '' : String(value),
          onChange: function (v) {
            var n = Number(v);
            set(v === '' || !isFinite(n) ? undefined : n);
          },
        }));
      default:
        return el(components.TextControl, Object.assign({}, common, {
          value: value === undefined || value === null ? '' : value,
          onChange: function (v) { set(v === '' ? undefined : v); },
        }));
    }
  }

  blocks.forEach(function (block) {
    wp.blocks.registerBlockType(block.name, {
      edit: function (props) {
        var fields = block.attributes.map(function (attribute) {
          return control(attribute, props.attributes[attribute.property], function (value) {
            var next = {};
            next[attribute.property] = value;
            props.setAttributes(next);
          }, attribute.property);
        });
        return el('div', useBlockProps(),
          el(components.Placeholder, {
            icon: 'tickets-alt',
            label: wp.blocks.getBlockType(block.name).title,
            instructions: sprintf(
              /* translators: %s: the element's tag, e.g. <seat-picker>. */
              __('Visitors see the live %s here.', 'stagedoor'),
              '<' + block.tag + '>'
            ),
          }, fields.length ? el('div', { style: { width: '100%', display: 'grid', gap: '12px' } }, fields) : null)
        );
      },
      save: function () { return null; },
    });
  });
})(window.wp, window.stagedoorBlocks);

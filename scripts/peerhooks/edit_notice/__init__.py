"""edit_notice"""
